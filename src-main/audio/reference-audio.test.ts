// Reference clip bytes: WAV of any rate and channel count decodes to mono PCM; FLAC, Ogg, MP3 and MP4
// are recognised and refused with the conversion to do; unknown bytes are named as such.
import { describe, expect, it } from 'vitest';
import { decodeReferenceAudio, sniffAudioContainer } from './reference-audio';
import { encodeWav } from './wav';

describe('reference audio bytes', () => {
  it('decodes a 44.1 kHz WAV to mono PCM at its own rate', () => {
    const pcm = Float32Array.from({ length: 4410 }, (_, i) => 0.5 * Math.sin(i / 10));
    const decoded = decodeReferenceAudio(encodeWav(pcm, 44100, 'float32'));
    expect(decoded.sampleRateHz).toBe(44100);
    expect(decoded.pcm.length).toBe(4410);
    expect(decoded.pcm[100]).toBeCloseTo(pcm[100], 6);
  });

  it('recognises other containers and names the conversion', () => {
    const bytes = (s: string, rest: number[] = []) => Uint8Array.from([...s].map((c) => c.charCodeAt(0)).concat(rest, Array(16).fill(0)));
    expect(sniffAudioContainer(bytes('fLaC'))).toBe('flac');
    expect(sniffAudioContainer(bytes('OggS'))).toBe('ogg');
    expect(sniffAudioContainer(bytes('ID3'))).toBe('mp3');
    expect(sniffAudioContainer(Uint8Array.from([0xff, 0xfb, 0x90, 0x64]))).toBe('mp3');
    expect(sniffAudioContainer(bytes('\0\0\0\x20ftypM4A '))).toBe('mp4');
    expect(() => decodeReferenceAudio(bytes('OggS'))).toThrow(/an OGG file; only WAV is decoded so far: convert it \(e\.g\. ffmpeg -i clip\.ogg clip\.wav\)/);
    expect(() => decodeReferenceAudio(bytes('hello'))).toThrow(/not a recognised audio file/);
  });
});
