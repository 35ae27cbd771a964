/**
 * Lab: what one request's text costs the engine host's event loop before any model runs (issue 22).
 * Tokenizes text of several kinds at the cheap size cap (maxSequenceTokens × MAX_BYTES_PER_TEXT_TOKEN
 * bytes) with the bundled Qwen2 vocabulary, and times the refusal of 1 MB through createSequence.
 * Median of 5 runs, each on text the tokenizer has not seen (seeded). Records, never fails. Run: npx tsx lab/gpu/tokenize-cost.ts
 */
import { StudioError } from '../../src-shared/errors';
import { MAX_BYTES_PER_TEXT_TOKEN, createSequence } from '../../src-main/engine/create-sequence';
import { defaultEngineConfig } from '../../src-main/engine/engine-config';
import { fakeManifest } from '../../src-main/engine/testing/fake-stages';
import { loadBundledQwen2Tokenizer } from '../../src-main/engine/tokenizer';

const NUM_RUNS = 5;
const tokenizer = loadBundledQwen2Tokenizer();
const config = defaultEngineConfig();
const maxBytes = config.maxSequenceTokens * MAX_BYTES_PER_TEXT_TOKEN;

function medianMs(run: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < NUM_RUNS; i++) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(NUM_RUNS / 2)];
}

/** A seeded generator (mulberry32), so every run tokenizes the same text. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Text that does not repeat (the tokenizer caches pieces it has seen, so repeated text measures the
 * cache): `next()` pieces appended while the whole stays within `numBytes` of UTF-8.
 */
function textOf(next: () => string, numBytes: number): string {
  let text = '';
  let size = 0;
  for (;;) {
    const piece = next();
    const pieceBytes = Buffer.byteLength(piece);
    if (size + pieceBytes > numBytes) return text;
    text += piece;
    size += pieceBytes;
  }
}

const random = rng(22);
const pick = (chars: string) => chars[Math.floor(random() * chars.length)];
const codePoint = (from: number, to: number) => String.fromCodePoint(from + Math.floor(random() * (to - from)));
const word = () => Array.from({ length: 2 + Math.floor(random() * 8) }, () => pick('etaoinshrdlucmfwypvbgkqjxz')).join('') + (random() < 0.1 ? '. ' : ' ');

const KINDS: [string, () => string][] = [
  ['English-like words', word],
  ['CJK ideographs', () => codePoint(0x4e00, 0x9fa5)],
  ['emoji', () => codePoint(0x1f600, 0x1f64f)],
  ['digits', () => pick('0123456789')],
  ['symbol runs', () => pick('=-*#~').repeat(1 + Math.floor(random() * 200))],
];

console.log(`cap: ${maxBytes.toLocaleString('en-US')} bytes (maxSequenceTokens ${config.maxSequenceTokens} × ${MAX_BYTES_PER_TEXT_TOKEN})`);
console.log('| text | bytes | tokens | bytes/token | tokenize ms (median of 5) |');
console.log('|---|---:|---:|---:|---:|');
for (const [name, next] of KINDS) {
  // a fresh text per run: the tokenizer's cache must not see any of it before
  const texts = Array.from({ length: NUM_RUNS }, () => textOf(next, maxBytes));
  tokenizer.encode(textOf(next, 200)); // warm-up
  const numTokens = texts.map((t) => tokenizer.encode(t).length);
  const fresh = Array.from({ length: NUM_RUNS }, () => textOf(next, maxBytes));
  let run = 0;
  const ms = medianMs(() => tokenizer.encode(fresh[run++]));
  const numBytes = Buffer.byteLength(texts[0]);
  console.log(`| ${name} | ${numBytes} | ${numTokens[0]} | ${(numBytes / numTokens[0]).toFixed(2)} | ${ms.toFixed(0)} |`);
}

const megabyte = 'word '.repeat(200_000);
const request = { requestId: 'big', input: megabyte, inputFormat: 'text' as const, voice: 'ryan', language: 'english', seed: 1 };
const refuseMs = medianMs(() => {
  try {
    createSequence(1, request, fakeManifest(), tokenizer, config, 0);
    throw new Error('1 MB was accepted');
  } catch (err) {
    if (!(err instanceof StudioError) || err.code !== 'input-too-long') throw err;
  }
});
console.log(`1 MB of text refused with input-too-long in ${refuseMs.toFixed(2)} ms (median of ${NUM_RUNS})`);
