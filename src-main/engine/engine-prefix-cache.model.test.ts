// The prompt-prefix KV cache on the tiny models (CPU): a request gives the same codes and PCM bytes on
// a cache miss, on a hit, with the cache off (maxBytes 0) and on the whole-prompt prefill of before
// (a talker without prefix copies), in both prompt layouts; the counters say which happened; requests
// of one voice admitted together run their prefix once; a Base clone is keyed by its x-vector and,
// where they are in the prefix, its reference frames.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SynthesisRequest } from '../../src-shared/synthesis';
import { ensureTinyModel, ensureTinyVariant } from '../model-builder/tiny-model';
import { createEngine } from './create-engine';
import type { Engine } from './engine';
import type { OrtTalker } from './stages/talker';
import { referenceSynthesis } from './reference-synthesis';
import { runTogether } from './testing/run-and-collect';

const sha256 = (a: Float32Array | Uint8Array) => createHash('sha256').update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)).digest('hex');

const speak = (requestId: string, voice: string, input: string, seed: number, extra: Partial<SynthesisRequest> = {}): SynthesisRequest => ({
  requestId,
  input,
  inputFormat: 'text',
  voice,
  language: 'english',
  seed,
  params: { maxNewTokens: 10 },
  ...extra,
});

type TalkerOutputs = { logits: Float32Array; hidden: Float32Array }[];
const outputsHash = (outputs: TalkerOutputs) => outputs.map((o) => `${sha256(o.logits)}/${sha256(o.hidden)}`).join(',');

/**
 * Records the talker's outputs: the last prefill call's (the whole prompt, or the rows after the
 * prefix) and every decode's, hashed, so a difference too small to change a sampled code still shows.
 */
function recordTalker(engine: Engine): { lastPrefill: string; decodes: string[] } {
  const talker = engine.parts.stages.talker;
  const seen = { lastPrefill: '', decodes: [] as string[] };
  const [prefill, decode] = [talker.prefill.bind(talker), talker.decode.bind(talker)];
  talker.prefill = async (inputs) => {
    const out = await prefill(inputs);
    seen.lastPrefill = outputsHash(out);
    return out;
  };
  talker.decode = async (inputs) => {
    const out = await decode(inputs);
    seen.decodes.push(outputsHash(out));
    return out;
  };
  return seen;
}

const records = new WeakMap<Engine, ReturnType<typeof recordTalker>>();

/** Codes, PCM hash and talker output hashes of each request, run one after another (each alone in its steps). */
async function runEach(engine: Engine, requests: readonly SynthesisRequest[]): Promise<Map<string, { codes: number[][]; pcm: string; talker: string }>> {
  if (!records.has(engine)) records.set(engine, recordTalker(engine));
  const seen = records.get(engine)!;
  const out = new Map<string, { codes: number[][]; pcm: string; talker: string }>();
  for (const r of requests) {
    seen.decodes.length = 0;
    const run = (await runTogether(engine, [r])).get(r.requestId)!;
    out.set(r.requestId, { codes: run.codes, pcm: sha256(run.result.pcm), talker: sha256(new TextEncoder().encode([seen.lastPrefill, ...seen.decodes].join(';'))) });
  }
  return out;
}

/** An engine whose talker prefills whole prompts, as before the cache: its prefix-copy methods hidden. */
function withoutPrefixRuns(engine: Engine): Engine {
  const talker = engine.parts.stages.talker as unknown as Record<string, unknown>;
  talker.readPrefixKv = undefined;
  talker.writePrefixKv = undefined;
  return engine;
}

const engines: Engine[] = [];
async function open(modelDir: string, config: Record<string, unknown>): Promise<Engine> {
  const engine = await createEngine({ modelDir, config: { provider: 'cpu', codePredictor: 'step', ...config }, log: () => {} });
  engines.push(engine);
  return engine;
}

let builtDir: string;
beforeAll(async () => {
  ({ builtDir } = await ensureTinyModel());
});
afterAll(async () => {
  for (const e of engines) await e.dispose();
});

describe('prompt-prefix KV cache (tiny model, CPU)', () => {
  const CASES: [string, Record<string, unknown>][] = [
    ['non-streaming', { promptLayout: 'non-streaming' }],
    ['streaming-text', { promptLayout: 'streaming-text' }],
    ['device-resident KV', { kvCache: { mode: 'device' } }],
    ["graphCapture 'bound'", { graphCapture: { mode: 'bound' } }],
  ];
  for (const [name, config] of CASES) {
    it(`gives a hit the bytes of a miss, of the cache off and of a whole-prompt prefill (${name})`, { timeout: 120_000 }, async () => {
      const cached = await open(builtDir, config);
      const off = await open(builtDir, { ...config, prefixCache: { maxBytes: 0 } });
      const whole = withoutPrefixRuns(await open(builtDir, config));
      const first = speak('a', 'ryan', 'Hello world, this is the studio.', 42);
      const again = speak('b', 'ryan', 'Hello world, this is the studio.', 42);
      const other = speak('c', 'ryan', 'Another sentence, same voice.', 7);
      const hits = await runEach(cached, [first, again, other]);
      // a misses; b and c find ryan's prefix: 1 entry, 2 hits
      expect(cached.status().prefixCache).toMatchObject({ numMisses: 1, numHits: 2, numEntries: 1 });
      expect(cached.status().prefixCache!.numBytes).toBeGreaterThan(0);
      const offRuns = await runEach(off, [first, other]);
      expect(off.status().prefixCache).toMatchObject({ numHits: 0, numMisses: 2, numEntries: 0, numBytes: 0 });
      const wholeRuns = await runEach(whole, [first, other]);
      for (const [id, hit] of [['a', hits.get('b')!], ['c', hits.get('c')!]] as const) {
        const miss = id === 'a' ? hits.get('a')! : offRuns.get('c')!;
        expect(hit.codes.length).toBeGreaterThan(0);
        expect(hit).toEqual(miss);
        expect(hit).toEqual(offRuns.get(id));
        expect(hit).toEqual(wholeRuns.get(id));
      }
      // and the codes of the unbatched reference path (one whole-prompt prefill)
      const p = cached.parts;
      expect(hits.get('c')!.codes).toEqual((await referenceSynthesis(p.stages, p.manifest, p.tokenizer, p.config, other)).codes);
    });
  }

  it('misses on another voice or language, and runs one prefix for requests of one voice admitted together', { timeout: 120_000 }, async () => {
    const cached = await open(builtDir, { maxPrefillSequences: 4 });
    const off = await open(builtDir, { prefixCache: { maxBytes: 0 } });
    const talker = cached.parts.stages.talker as unknown as OrtTalker;
    const together = [speak('t1', 'ryan', 'One.', 1), speak('t2', 'ryan', 'Two words.', 2), speak('t3', 'ryan', 'Three words here.', 3)];
    const runsBefore = talker.prefillRunBatchSizes.length;
    const batched = await runTogether(cached, together);
    // one prefix run for ryan, then the three rests (different row counts: one run each) = 4 runs, one miss
    expect(talker.prefillRunBatchSizes.length - runsBefore).toBe(4);
    expect(cached.status().prefixCache).toMatchObject({ numMisses: 1, numHits: 0, numEntries: 1 });
    const alone = await runEach(off, together);
    for (const r of together) expect({ codes: batched.get(r.requestId)!.codes, pcm: sha256(batched.get(r.requestId)!.result.pcm) }).toEqual({ ...alone.get(r.requestId), talker: undefined });
    await runEach(cached, [speak('v', 'aiden', 'One.', 1), speak('l', 'ryan', 'One.', 1, { language: 'chinese' }), speak('h', 'ryan', 'Four.', 4)]);
    // aiden and chinese miss, ryan in english hits
    expect(cached.status().prefixCache).toMatchObject({ numMisses: 3, numHits: 1, numEntries: 3 });
  });

  it('evicts the least recently used voice when the budget holds one prefix', { timeout: 120_000 }, async () => {
    const probe = await open(builtDir, {});
    await runEach(probe, [speak('p', 'ryan', 'One.', 1)]);
    const oneEntry = probe.status().prefixCache!.numBytes;
    const small = await open(builtDir, { prefixCache: { maxBytes: oneEntry } });
    await runEach(small, [speak('a', 'ryan', 'One.', 1), speak('b', 'aiden', 'One.', 1), speak('c', 'ryan', 'One.', 1)]);
    // ryan (miss, kept), aiden (miss, evicts ryan: same row count, same bytes), ryan (miss again)
    expect(small.status().prefixCache).toMatchObject({ numMisses: 3, numHits: 0, numEntries: 1, numEvictions: 2, numBytes: oneEntry });
  });
});

describe('prompt-prefix KV cache (tiny Base model, CPU)', () => {
  let baseDir: string;
  beforeAll(async () => {
    ({ builtDir: baseDir } = await ensureTinyVariant({ size: 'tiny', modelType: 'base' }));
  }, 240_000);

  it('keys a clone by its x-vector and reference, with the bytes of the cache off', { timeout: 180_000 }, async () => {
    const cached = await open(baseDir, { promptLayout: 'streaming-text' });
    const off = await open(baseDir, { promptLayout: 'streaming-text', prefixCache: { maxBytes: 0 } });
    const m = cached.parts.manifest;
    const vector = (salt: number) => Array.from({ length: m.talker.hiddenSize }, (_, i) => Math.sin(i * 0.37 + salt) * 0.05);
    const codes = (salt: number) => Array.from({ length: 12 }, (_, t) => Array.from({ length: m.numCodeGroups }, (_, j) => (t * 7 + j * 3 + salt) % m.codePredictor.vocabSize));
    const clone = (id: string, salt: number, codeSalt: number, input: string): SynthesisRequest =>
      speak(id, '', input, 5, { speakerEmbedding: vector(salt), refCodes: codes(codeSalt), refText: 'The reference clip says this.' });
    const requests = [clone('a', 1, 1, 'Hello there.'), clone('b', 1, 1, 'Something else.'), clone('c', 2, 1, 'Hello there.'), clone('d', 1, 2, 'Hello there.')];
    const hits = await runEach(cached, requests);
    // a misses; b hits (same clone); c (other x-vector) and d (other reference frames, beside the transcript when streaming) miss
    expect(cached.status().prefixCache).toMatchObject({ numMisses: 3, numHits: 1, numEntries: 3 });
    expect(hits).toEqual(await runEach(off, requests));
  });
});
