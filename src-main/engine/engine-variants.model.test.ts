// The engine on the 1.7B layout (tiny-1.7b: small_to_mtp_projection present, square text projection)
// for CustomVoice with instruct and for VoiceDesign with a description: golden codes and WAV hashes
// from the unbatched reference path, the batched engine equal to it, and a seed's bytes independent
// of batch-mates. Set UPDATE_GOLDEN=1 to rewrite src-main/engine/golden/tiny-1.7b-*.json.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SynthesisRequest } from '../../src-shared/synthesis';
import { ensureTinyVariant, type TinyVariant } from '../model-builder/tiny-model';
import { createEngine } from './create-engine';
import type { Engine } from './engine';
import { referenceSynthesis } from './reference-synthesis';
import { runAndCollect, runTogether } from './testing/run-and-collect';
import { encodeWav } from '../audio/wav-encode';
import { expectBatchInvariant } from './testing/expect-batch-invariant';

const MAX_CHUNKED_DIFF = 1e-4;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

interface Case {
  variant: TinyVariant;
  goldenFile: string;
  requests: SynthesisRequest[];
}

const CASES: Case[] = [
  {
    variant: { size: 'tiny-1.7b', modelType: 'custom_voice' },
    goldenFile: 'tiny-1.7b-custom-voice.json',
    requests: [
      { requestId: 'i', input: 'Hello world, this is the studio.', inputFormat: 'text', voice: 'ryan', language: 'english', instruct: 'Speak slowly and warmly.', seed: 42, params: { maxNewTokens: 12 } },
      { requestId: 'p', input: 'Hello world, this is the studio.', inputFormat: 'text', voice: 'ryan', language: 'english', seed: 42, params: { maxNewTokens: 12 } },
      { requestId: 'g', input: '你好，世界。', inputFormat: 'text', voice: 'dylan', language: 'chinese', instruct: '用开心的语气', seed: 7, params: { maxNewTokens: 9, doSample: false } },
    ],
  },
  {
    variant: { size: 'tiny-1.7b', modelType: 'voice_design' },
    goldenFile: 'tiny-1.7b-voice-design.json',
    requests: [
      { requestId: 'd', input: 'Hello world, this is the studio.', inputFormat: 'text', voice: '', language: 'english', instruct: 'A low, gravelly male voice, unhurried.', seed: 42, params: { maxNewTokens: 12 } },
      { requestId: 'e', input: 'Short.', inputFormat: 'text', voice: '', language: 'auto', instruct: 'A bright young female voice.', seed: 5, params: { maxNewTokens: 10, doSample: false } },
      { requestId: 'n', input: 'Short.', inputFormat: 'text', voice: '', language: 'auto', instruct: '', seed: 5, params: { maxNewTokens: 10, doSample: false } },
    ],
  },
];

for (const c of CASES) {
  describe(`engine on ${c.variant.size} ${c.variant.modelType} (CPU, step code predictor)`, () => {
    let engine: Engine;
    const goldenPath = path.resolve(import.meta.dirname, 'golden', c.goldenFile);

    beforeAll(async () => {
      const { builtDir } = await ensureTinyVariant(c.variant);
      engine = await createEngine({ modelDir: builtDir, config: { provider: 'cpu', codePredictor: 'step' }, log: () => {} });
    }, 240_000);

    afterAll(async () => {
      await engine?.dispose();
    });

    it('builds the 1.7B layout: a code predictor narrower than the talker behind its input projection', () => {
      const m = engine.parts.manifest;
      expect(m.ttsModelType).toBe(c.variant.modelType);
      expect(m.ttsModelSize).toBe('1b7');
      expect(m.codePredictor).toMatchObject({ inputSize: 64, hiddenSize: 32, hasInputProjection: true });
    });

    it('reproduces the golden codes and WAV hashes on the unbatched reference path', async () => {
      const p = engine.parts;
      const golden: Record<string, { codes: number[][]; wavPcm16Sha256: string }> = {};
      for (const r of c.requests) {
        const ref = await referenceSynthesis(p.stages, p.manifest, p.tokenizer, p.config, r);
        golden[r.requestId] = { codes: ref.codes, wavPcm16Sha256: sha256(encodeWav(ref.pcm, 24000, 'pcm16')) };
      }
      if (process.env.UPDATE_GOLDEN === '1') {
        const about = `${c.variant.size} ${c.variant.modelType} (seed 1), reference path; regenerate with UPDATE_GOLDEN=1`;
        fs.writeFileSync(goldenPath, `${JSON.stringify({ about, requests: c.requests, golden }, null, 1)}\n`);
      }
      expect(golden).toEqual(JSON.parse(fs.readFileSync(goldenPath, 'utf8')).golden);
    });

    it('matches the reference when the three run together: same codes, PCM within 1e-4 after chunked decoding', async () => {
      const together = await runTogether(engine, c.requests);
      const p = engine.parts;
      for (const r of c.requests) {
        const ref = await referenceSynthesis(p.stages, p.manifest, p.tokenizer, p.config, r);
        const run = together.get(r.requestId)!;
        expect(run.codes).toEqual(ref.codes);
        expect(run.result.numSamples).toBe(ref.pcm.length);
        let maxDiff = 0;
        for (let i = 0; i < ref.pcm.length; i++) maxDiff = Math.max(maxDiff, Math.abs(run.result.pcm[i] - ref.pcm[i]));
        expect(maxDiff, r.requestId).toBeLessThanOrEqual(MAX_CHUNKED_DIFF);
      }
    });

    it("keeps each seed's codes and PCM bytes independent of batch-mates, arriving together or staggered", async () => {
      await expectBatchInvariant(engine, c.requests, [0, 2, 3]);
    });

    it('lets the instruction change the codes (same text, voice and seed)', async () => {
      const first = c.requests[0];
      const runs = await runAndCollect(engine, [first, { ...first, requestId: 'x', instruct: 'Whisper, very fast.' }]);
      expect(runs.get('x')!.codes).not.toEqual(runs.get(first.requestId)!.codes);
    });
  });
}
