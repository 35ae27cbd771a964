/**
 * A lost device (a sticky CUDA error: the context is unusable after it) stops the engine host: every
 * request in flight fails with device-lost, and the service reports it once so engine-host.ts can exit
 * and its supervisor start a fresh host. Fake model stages; the talker's decode throws the error the
 * captured CUDA graph replay gave on the H200.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { StudioError } from '../../src-shared/errors';
import type { SynthesisRequest, SynthesisResult } from '../../src-shared/synthesis';
import { Engine } from '../engine/engine';
import { resolveEngineConfig } from '../engine/engine-config';
import { studioErrorFromStatus } from '../engine/runtime/capi/ort-status';
import { fakeManifest, fakeStages, fakeTokenizer } from '../engine/testing/fake-stages';
import { resolveSchedulerConfig } from '../scheduler/batch-policy';
import { defaultAudioInsertPolicy } from './audio-inserts';
import { HostedSynthesis } from './synthesis-service';

const REPLAY_ERROR = 'CUDA failure 700: an illegal memory access was encountered ; GPU=0 ; file=cuda_graph.cc ; line=85 ; expr=cudaStreamSynchronize(stream_);';
const services: HostedSynthesis[] = [];
afterAll(async () => {
  for (const s of services) await s.dispose();
});

function serviceWhoseDecodeFails(afterCalls: number, ortCode: number, message: string) {
  const stages = fakeStages();
  const decode = stages.talker.decode.bind(stages.talker);
  let calls = 0;
  stages.talker.decode = async (inputs) => {
    if (++calls > afterCalls) throw studioErrorFromStatus(ortCode, message, { action: 'running talker-decode.onnx with bound buffers', fix: 'report this' });
    return decode(inputs);
  };
  const engine = new Engine({ manifest: fakeManifest(), tokenizer: fakeTokenizer(), stages, config: resolveEngineConfig({ provider: 'cpu' }), provider: { name: 'cpu', reason: 'test' }, scheduler: resolveSchedulerConfig({ maxRunningSequences: 8 }) });
  const lost: StudioError[] = [];
  const service = new HostedSynthesis(engine, { id: 'fake', synthetic: true, displayName: 'fake' }, () => {}, {
    audioInserts: defaultAudioInsertPolicy([], 24000),
    log: () => {},
    onDeviceLost: (e) => lost.push(e),
  });
  services.push(service);
  return { service, engine, lost };
}

const request = (i: number): SynthesisRequest => ({ requestId: `d${i}`, input: `Words number ${i}.`, inputFormat: 'text', voice: 'ryan', language: 'english', seed: i });
const outcome = (p: Promise<unknown>) => p.then(() => 'done', (e: unknown) => (e as StudioError).code);

describe('a lost device', () => {
  it('fails every request in flight with device-lost, reports it once, and the engine takes no more work', async () => {
    const { service, engine, lost } = serviceWhoseDecodeFails(3, 1, REPLAY_ERROR);
    const results = await Promise.all([0, 1, 2].map((i) => outcome(service.call('synthesize', request(i)) as Promise<SynthesisResult>)));
    expect(results).toEqual(['device-lost', 'device-lost', 'device-lost']);
    expect(lost).toHaveLength(1);
    expect(lost[0].message).toContain('illegal memory access');
    expect(engine.status().state).toBe('failed');
  });

  it('does not report an ordinary step failure as a lost device', async () => {
    const { service, engine, lost } = serviceWhoseDecodeFails(3, 2, 'Got invalid dimensions for input');
    const results = await Promise.all([0, 1].map((i) => outcome(service.call('synthesize', request(10 + i)) as Promise<SynthesisResult>)));
    expect(results).toEqual(['invalid-argument', 'invalid-argument']);
    expect(lost).toHaveLength(0);
    expect(engine.status().state).toBe('ready');
  });
});
