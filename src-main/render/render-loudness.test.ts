/**
 * A render applies loudness once: parts rendered on the engine host's own synthesis service (over
 * fake model stages) are stored as the model's samples, not pre-gained to the target, and the
 * assembled work is those samples joined times one gain, to the target. Plain-text and SSML parts alike.
 */
import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SynthesisRequest, SynthesisResult } from '../../src-shared/synthesis';
import { Engine } from '../engine/engine';
import { resolveEngineConfig } from '../engine/engine-config';
import { fakeManifest, fakeStages, fakeTokenizer } from '../engine/testing/fake-stages';
import { resolveSchedulerConfig } from '../scheduler/batch-policy';
import { HostedSynthesis } from '../engine-host/synthesis-service';
import { defaultAudioInsertPolicy } from '../engine-host/audio-inserts';
import { measureIntegratedLoudness } from '../audio/loudness';
import { measureTruePeakDbtp } from '../audio/true-peak';
import { decodeWav } from '../audio/wav';
import type { EngineHostApi } from '../engine-client/engine-host-api';
import { planRender } from './render-plan';
import { assembleWork, defaultAssemblyConfig, partFile } from './render-parts';
import { renderLocally } from './render-local';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-render-loudness-'));
const services: HostedSynthesis[] = [];

afterAll(async () => {
  for (const s of services) await s.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function hostedSynthesis(): HostedSynthesis {
  const engine = new Engine({ manifest: fakeManifest(), tokenizer: fakeTokenizer(), stages: fakeStages(), config: resolveEngineConfig({ provider: 'cpu' }), provider: { name: 'cpu', reason: 'test' }, scheduler: resolveSchedulerConfig({ maxRunningSequences: 8 }) });
  const service = new HostedSynthesis(engine, { id: 'fake', synthetic: true, displayName: 'fake' }, () => {}, {
    audioInserts: defaultAudioInsertPolicy([], 24000),
    log: () => {},
  });
  services.push(service);
  return service;
}

describe('render loudness', () => {
  it('stores parts as the model made them and normalises only the assembled work', async () => {
    const service = hostedSynthesis();
    const host = service as unknown as Pick<EngineHostApi, 'call'>;
    const docs = path.join(tmp, 'book');
    fs.mkdirSync(docs);
    fs.writeFileSync(path.join(docs, '1-text.txt'), 'The first paragraph is here.\n\nA second, longer paragraph follows it.\n');
    fs.writeFileSync(path.join(docs, '2-ssml.ssml'), '<speak><p>An SSML paragraph.</p><p>And <break time="200ms"/> another one.</p></speak>');
    const plan = planRender(docs, { voice: 'ryan', language: 'english', seed: 5, model: 'fake' });
    expect(plan.parts.map((p) => p.inputFormat)).toEqual(['text', 'text', 'ssml', 'ssml']);
    const outDir = path.join(tmp, 'out');
    const { failures } = await renderLocally(host, plan, outDir, () => {}, { concurrency: 2 });
    expect(failures).toEqual([]);
    for (const part of plan.parts) {
      const stored = decodeWav(fs.readFileSync(partFile(outDir, part.id)));
      // the same part as a normal (normalised) request: its trace says how loud the model's samples were
      const normal = (await service.call('synthesize', { requestId: `n-${part.id}`, input: part.input, inputFormat: part.inputFormat, voice: 'ryan', language: 'english', seed: 5 } satisfies SynthesisRequest)) as SynthesisResult;
      const modelLufs = normal.trace!.loudnessMeasuredLufs!;
      // a normal request is gained (towards the target, under the true-peak ceiling) by more than the check below can miss
      expect(Math.abs(normal.trace!.loudnessFinalLufs! - modelLufs)).toBeGreaterThan(1);
      expect(measureIntegratedLoudness(stored.pcm, stored.sampleRateHz)).toBeCloseTo(modelLufs, 1);
      expect(stored.pcm.length).toBe(normal.pcm.length);
    }
    // the assembly: the stored parts joined with their pauses, times ONE gain
    // a target low enough that the true-peak ceiling never sets the gain (the fake model's audio is peaky)
    const config = { ...defaultAssemblyConfig(), loudness: { targetLufs: -40, truePeakCeilingDbtp: -1 }, format: 'float32' as const };
    const work = assembleWork(plan, outDir, config);
    const out = decodeWav(work.wav);
    const raw: number[] = [];
    plan.parts.forEach((part, i) => {
      if (i > 0) raw.push(...new Array<number>(Math.round(((part.chapter !== plan.parts[i - 1].chapter ? config.chapterPauseMs : config.paragraphPauseMs) * out.sampleRateHz) / 1000)).fill(0));
      raw.push(...decodeWav(fs.readFileSync(partFile(outDir, part.id))).pcm);
    });
    expect(out.pcm.length).toBe(raw.length);
    const peakAt = raw.reduce((best, x, i) => (Math.abs(x) > Math.abs(raw[best]) ? i : best), 0);
    const gain = out.pcm[peakAt] / raw[peakAt];
    expect(out.pcm.every((x, i) => Math.abs(x - gain * raw[i]) < 1e-6)).toBe(true);
    // ... which brings the work to the target
    expect(measureIntegratedLoudness(out.pcm, out.sampleRateHz)).toBeCloseTo(-40, 1);
    expect(measureTruePeakDbtp(out.pcm, out.sampleRateHz)).toBeLessThan(-1);
  });
});
