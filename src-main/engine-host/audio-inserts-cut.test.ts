/**
 * A WAV cut short is refused as an <audio src> insert, as it is as a reference clip: the same
 * check (clip-integrity.ts wavTruncation, through readWavLayout), the same generic warning as any
 * other unreadable insert, and the reason in the host's log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encodeWav } from '../audio/wav';
import { defaultAudioInsertPolicy, loadAudioInserts, refusalWarning, type AudioInsertPolicy } from './audio-inserts';

let base: string;
let policy: AudioInsertPolicy;

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'audio-inserts-cut-')));
  const whole = encodeWav(new Float32Array(2400).fill(0.25), 24000, 'pcm16'); // 44-byte header + 4,800 bytes of data
  fs.writeFileSync(path.join(base, 'whole.wav'), whole);
  fs.writeFileSync(path.join(base, 'cut.wav'), whole.subarray(0, 44 + 1000));
  policy = defaultAudioInsertPolicy([base], 24000);
});

afterAll(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

describe('loadAudioInserts and a WAV cut short', () => {
  it('refuses the cut file with the generic warning and logs why, while the whole file still decodes', async () => {
    const log: string[] = [];
    const loaded = await loadAudioInserts(
      ['whole.wav', 'cut.wav'].map((src) => ({ kind: 'audio' as const, src, fallbackText: '' })),
      policy,
      (m) => log.push(m),
    );
    expect([...loaded.audio.keys()]).toEqual(['whole.wav']);
    expect(loaded.audio.get('whole.wav')!.pcm.length).toBe(2400);
    expect(loaded.warnings).toEqual([refusalWarning('cut.wav', policy)]);
    expect(log.join('\n')).toMatch(/cut\.wav.*cut short: its WAV data chunk announces 4800 bytes but the file holds 1000/);
  });
});
