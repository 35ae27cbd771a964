/**
 * Decodes the bytes of a reference clip for voice cloning into mono float PCM at its own rate: WAV of
 * any rate, channel count and PCM/float depth through `wavefile` (wav.ts); other containers are
 * recognised by their magic bytes and refused with the fix (convert to WAV), since no maintained
 * pure-JavaScript decoder for them is a dependency yet. Pure: bytes in, PCM out.
 */
import { StudioError } from '../../src-shared/errors';
import { decodeWav, type DecodedWav } from './wav';

const ascii = (bytes: Uint8Array, start: number, length: number) => new TextDecoder('latin1').decode(bytes.subarray(start, start + length));

/** The container a clip's first bytes announce, or null when unknown. */
export function sniffAudioContainer(bytes: Uint8Array): 'wav' | 'flac' | 'ogg' | 'mp3' | 'mp4' | null {
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WAVE') return 'wav';
  if (bytes.length >= 4 && ascii(bytes, 0, 4) === 'fLaC') return 'flac';
  if (bytes.length >= 4 && ascii(bytes, 0, 4) === 'OggS') return 'ogg';
  if (bytes.length >= 3 && ascii(bytes, 0, 3) === 'ID3') return 'mp3';
  if (bytes.length >= 2 && bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0) return 'mp3'; // MPEG frame sync
  if (bytes.length >= 8 && ascii(bytes, 4, 4) === 'ftyp') return 'mp4';
  return null;
}

export function decodeReferenceAudio(bytes: Uint8Array): DecodedWav {
  const container = sniffAudioContainer(bytes);
  if (container === 'wav') return decodeWav(bytes);
  const what = container ? `${container === 'ogg' || container === 'mp3' || container === 'mp4' ? 'an' : 'a'} ${container.toUpperCase()} file` : 'not a recognised audio file';
  throw new StudioError('unsupported', `the reference clip is ${what}; only WAV is decoded so far: convert it (e.g. ffmpeg -i clip.${container ?? 'ext'} clip.wav) and import the WAV`, {
    field: 'referenceAudio',
    value: container ?? 'unknown',
    allowed: ['wav'],
  });
}
