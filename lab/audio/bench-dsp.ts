/**
 * DSP cost benchmark (a script, not a test): milliseconds per second of 24 kHz audio for
 * time-stretch, pitch shift and loudness, and the whole post-processing of a 15 s clip.
 * Run: npx tsx lab/audio/bench-dsp.ts. Records numbers; never fails.
 */
import { harmonicTone, seededRandom } from '../../src-main/audio/dsp-test-helpers';
import { measureIntegratedLoudness } from '../../src-main/audio/loudness';
import { normalizeLoudness } from '../../src-main/audio/normalize-loudness';
import { renderTimeline } from '../../src-main/audio/pipeline';
import { pitchShift } from '../../src-main/audio/pitch-shift';
import { timeStretch } from '../../src-main/audio/time-stretch';
import { measureTruePeak } from '../../src-main/audio/true-peak';

const RATE_HZ = 24000;
const CLIP_S = 15;
const NUM_REPEATS = 7;
const BUDGET_15S_MS = 50;

/** Speech-like test audio: a gliding harmonic tone in syllable-sized bursts plus a little noise. */
function speechLike(durationS: number): Float32Array {
  const x = harmonicTone(140, RATE_HZ, durationS, 0.25);
  const random = seededRandom(11);
  for (let i = 0; i < x.length; i++) {
    const syllable = 0.5 + 0.5 * Math.sin((2 * Math.PI * 4 * i) / RATE_HZ);
    x[i] = x[i] * syllable + (random() - 0.5) * 0.01;
  }
  return x;
}

function medianMs(run: () => unknown): number {
  run(); // warm-up (JIT)
  const times: number[] = [];
  for (let r = 0; r < NUM_REPEATS; r++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const clip = speechLike(CLIP_S);
const rows: [string, number][] = [
  ['time-stretch rate 1.1 (WSOLA)', medianMs(() => timeStretch(clip, RATE_HZ, 1.1))],
  ['time-stretch rate 0.9 (WSOLA)', medianMs(() => timeStretch(clip, RATE_HZ, 0.9))],
  ['pitch shift +2 st (WSOLA + resample)', medianMs(() => pitchShift(clip, RATE_HZ, 2))],
  ['loudness: integrated (K-weighting, gating)', medianMs(() => measureIntegratedLoudness(clip, RATE_HZ))],
  ['loudness: true peak (8x at 24 kHz)', medianMs(() => measureTruePeak(clip, RATE_HZ))],
  ['loudness: normalise to -16 LUFS / -1 dBTP', medianMs(() => normalizeLoudness(clip, RATE_HZ, { targetLufs: -16, truePeakCeilingDbtp: -1 }))],
];
const thirds = [clip.subarray(0, 5 * RATE_HZ), clip.subarray(5 * RATE_HZ, 10 * RATE_HZ), clip.subarray(10 * RATE_HZ)];
const pipelineMs = medianMs(() =>
  renderTimeline({
    items: [
      { kind: 'turn', turnIndex: 0, voice: 'v', language: 'english', pcm: thirds[0], sampleRateHz: RATE_HZ, rate: 1.1, pitchSemitones: 0, gainDb: 0 },
      { kind: 'break', durationMs: 300 },
      { kind: 'turn', turnIndex: 1, voice: 'v', language: 'english', pcm: thirds[1], sampleRateHz: RATE_HZ, rate: 1, pitchSemitones: 2, gainDb: -2 },
      { kind: 'turn', turnIndex: 2, voice: 'v', language: 'english', pcm: thirds[2], sampleRateHz: RATE_HZ, rate: 0.9, pitchSemitones: -1, gainDb: 1 },
    ],
    loudness: { targetLufs: -16, truePeakCeilingDbtp: -1 },
  }),
);
const identityMs = medianMs(() => renderTimeline({ items: [{ kind: 'turn', turnIndex: 0, voice: 'v', language: 'english', pcm: clip, sampleRateHz: RATE_HZ, rate: 1, pitchSemitones: 0, gainDb: 0 }] }));

console.log(`DSP cost at ${RATE_HZ} Hz, ${CLIP_S} s clip, median of ${NUM_REPEATS} (Node ${process.version}, ${process.arch})`);
console.log('| stage | ms for 15 s | ms per s of audio |');
console.log('|---|---:|---:|');
for (const [name, ms] of rows) console.log(`| ${name} | ${ms.toFixed(1)} | ${(ms / CLIP_S).toFixed(2)} |`);
console.log(`| pipeline: 3 turns (stretch 1.1; pitch +2; stretch 0.9 + pitch -1), break, crossfades, normalise | ${pipelineMs.toFixed(1)} | ${(pipelineMs / CLIP_S).toFixed(2)} |`);
console.log(`| pipeline: 1 turn, no prosody, normalise only | ${identityMs.toFixed(1)} | ${(identityMs / CLIP_S).toFixed(2)} |`);
console.log(`goal: all post-processing for a 15 s clip under ${BUDGET_15S_MS} ms → ${pipelineMs <= BUDGET_15S_MS ? 'met' : 'NOT met'} (${pipelineMs.toFixed(1)} ms with prosody on every turn)`);
