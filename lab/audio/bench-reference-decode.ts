/**
 * Reference clip decoding cost (a script, not a test): milliseconds to decode a 10 s clip of each
 * format the voice library takes (our own encoders make them from one 44.1 kHz speech-like signal),
 * then prepare it (mono, 24 kHz, trim, checks). Run: npx tsx lab/audio/bench-reference-decode.ts.
 */
import { harmonicTone } from '../../src-main/audio/dsp-test-helpers';
import { encodeAudio } from '../../src-main/audio/encode-audio';
import { decodeReferenceAudio } from '../../src-main/audio/reference-audio';
import { prepareReferenceClip } from '../../src-main/audio/reference-clip';
import { encodeWav } from '../../src-main/audio/wav';

const RATE_HZ = 44100;
const CLIP_S = 10;
const NUM_REPEATS = 5;

async function medianMs(run: () => Promise<unknown>): Promise<number> {
  await run(); // warm-up (JIT, WebAssembly compile)
  const times: number[] = [];
  for (let r = 0; r < NUM_REPEATS; r++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

async function main(): Promise<void> {
  const pcm = harmonicTone(140, RATE_HZ, CLIP_S, 0.25);
  for (let i = 0; i < pcm.length; i++) pcm[i] *= 0.5 + 0.5 * Math.sin((2 * Math.PI * 4 * i) / RATE_HZ);
  const files: [string, Uint8Array][] = [['wav (16-bit, 44.1 kHz)', encodeWav(pcm, RATE_HZ, 'pcm16')]];
  for (const format of ['mp3', 'flac', 'opus'] as const) files.push([format, (await encodeAudio({ pcm, sampleRateHz: RATE_HZ, format })).bytes]);
  console.log('| clip (10 s) | bytes | decode ms | decode + prepare ms |');
  console.log('|---|---:|---:|---:|');
  for (const [name, bytes] of files) {
    const decodeMs = await medianMs(() => decodeReferenceAudio(bytes));
    const totalMs = await medianMs(async () => {
      const d = await decodeReferenceAudio(bytes);
      return prepareReferenceClip(d.pcm, d.sampleRateHz);
    });
    console.log(`| ${name} | ${bytes.byteLength} | ${decodeMs.toFixed(1)} | ${totalMs.toFixed(1)} |`);
  }
}

void main();
