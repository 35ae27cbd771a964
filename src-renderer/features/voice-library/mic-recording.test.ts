// Recording a reference clip: where the page may not record, the user is told why and what to do;
// a refused or missing microphone reads as such; a recording becomes a 16-bit mono WAV file.
import { describe, expect, it } from 'vitest';
import { microphoneErrorMessage, mixToMono, recordingToWav, recordingUnavailableReason } from './mic-recording';

describe('mic recording', () => {
  it('says why a page cannot record, and nothing when it can', () => {
    expect(recordingUnavailableReason({ isSecureContext: false, hasGetUserMedia: true, hasMediaRecorder: true })).toMatch(/only on a secure page.*pick a file/);
    expect(recordingUnavailableReason({ isSecureContext: true, hasGetUserMedia: false, hasMediaRecorder: true })).toMatch(/cannot record audio here/);
    expect(recordingUnavailableReason({ isSecureContext: true, hasGetUserMedia: true, hasMediaRecorder: false })).toMatch(/cannot record audio here/);
    expect(recordingUnavailableReason({ isSecureContext: true, hasGetUserMedia: true, hasMediaRecorder: true })).toBeNull();
  });

  it('puts a refused, missing or busy microphone in words with the way out', () => {
    const named = (name: string) => Object.assign(new Error('x'), { name });
    expect(microphoneErrorMessage(named('NotAllowedError'))).toMatch(/refused; allow it/);
    expect(microphoneErrorMessage(named('NotFoundError'))).toMatch(/No microphone was found/);
    expect(microphoneErrorMessage(named('NotReadableError'))).toMatch(/busy or failed to start/);
    expect(microphoneErrorMessage(new Error('boom'))).toBe('Recording failed: boom; pick a file instead.');
  });

  it('mixes channels to one', () => {
    expect([...mixToMono([Float32Array.of(1, 0), Float32Array.of(0, 1)])]).toEqual([0.5, 0.5]);
  });

  it('turns a recording into a 16-bit mono WAV named after its time', async () => {
    const decoded = { numberOfChannels: 2, sampleRate: 48_000, getChannelData: (c: number) => new Float32Array(480).fill(c === 0 ? 0.5 : 0) } as unknown as AudioBuffer;
    const file = await recordingToWav(new Blob([Uint8Array.of(1, 2)]), async () => decoded, new Date(2026, 0, 1, 12, 3, 4));
    expect(file.name).toBe('recording-12-03-04.wav');
    const bytes = new DataView(await file.arrayBuffer());
    expect(String.fromCharCode(bytes.getUint8(0), bytes.getUint8(1), bytes.getUint8(2), bytes.getUint8(3))).toBe('RIFF');
    expect(bytes.getUint16(22, true)).toBe(1); // mono
    expect(bytes.getUint32(24, true)).toBe(48_000);
    expect(bytes.getUint16(34, true)).toBe(16);
    // 480 samples × 2 bytes after the 44-byte header.
    expect(file.size).toBe(44 + 960);
  });
});
