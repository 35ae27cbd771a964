/**
 * WAV decoding into mono float PCM, on top of `wavefile`; encoding is wav-encode.ts (the studio's
 * one WAV writer), re-exported here. Pure: bytes in, bytes out; reading and writing files is the
 * caller's job. Multi-channel input is downmixed to mono by averaging the channels.
 */
import * as wavefileModule from 'wavefile';
import { StudioError } from '../../src-shared/errors';

// wavefile ships CommonJS (Node sees only `default`) and an ES build (bundlers see named exports).
type WavefileShape = { WaveFile: typeof wavefileModule.WaveFile };
const wavefileExports = wavefileModule as unknown as WavefileShape & { default?: WavefileShape };
const WaveFile = wavefileExports.WaveFile ?? wavefileExports.default!.WaveFile;

export { encodeWav, type WavFormat } from './wav-encode';

export interface DecodedWav {
  pcm: Float32Array;
  sampleRateHz: number;
  numChannels: number;
}

/** Decodes integer (8/16/24/32-bit) or float (32/64-bit) PCM WAV into mono float PCM. */
export function decodeWav(bytes: Uint8Array): DecodedWav {
  const wav = new WaveFile();
  try {
    wav.fromBuffer(bytes);
  } catch (err) {
    throw new StudioError('invalid-argument', `bytes are not a readable WAV file (${(err as Error).message}); export the audio as PCM WAV`, { field: 'bytes', numBytes: bytes.length });
  }
  const fmt = wav.fmt as { audioFormat: number; numChannels: number; sampleRate: number; bitsPerSample: number };
  const bitDepth = wav.bitDepth;
  const scale = integerScale(bitDepth);
  if (scale === null && bitDepth !== '32f' && bitDepth !== '64') {
    throw new StudioError('unsupported', `WAV sample format '${bitDepth}' (audioFormat ${fmt.audioFormat}) is not supported; use 8/16/24/32-bit integer or 32/64-bit float PCM`, { field: 'bitDepth', value: bitDepth, allowed: ['8', '16', '24', '32', '32f', '64'] });
  }
  const numChannels = fmt.numChannels;
  // getSamples(false) gives one array per channel for multi-channel files, a flat array for mono.
  const raw = wav.getSamples(false, Float64Array) as unknown as Float64Array | Float64Array[];
  const channels: ArrayLike<number>[] = numChannels === 1 ? [raw as Float64Array] : (raw as Float64Array[]);
  const numSamples = channels[0]?.length ?? 0;
  const pcm = new Float32Array(numSamples);
  const offset = bitDepth === '8' ? 128 : 0; // 8-bit WAV is unsigned
  // Negative values scale by 2^(bits-1), positive ones by 2^(bits-1) - 1, so the full integer range maps onto [-1, 1].
  const negativeDivisor = (scale ?? 1) * numChannels;
  const positiveDivisor = (scale === null ? 1 : scale - 1) * numChannels;
  for (const channel of channels) {
    for (let i = 0; i < numSamples; i++) {
      const v = channel[i] - offset;
      pcm[i] += v / (v < 0 ? negativeDivisor : positiveDivisor);
    }
  }
  return { pcm, sampleRateHz: fmt.sampleRate, numChannels };
}

function integerScale(bitDepth: string): number | null {
  switch (bitDepth) {
    case '8': return 128;
    case '16': return 32768;
    case '24': return 8388608;
    case '32': return 2147483648;
    default: return null;
  }
}
