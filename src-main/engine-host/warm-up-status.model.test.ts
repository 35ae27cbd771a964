// The engine host's start with a warm-up (EngineConfig.warmUp 'on', tiny model, CPU, graphCapture 'bound'):
// the service exists (and the host posts 'ready' with its status) only after the warm-up, whose time and
// bucket count the start-up log and the status both report; with warmUp 'off' the status has none.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTinyModel } from '../model-builder/tiny-model';
import { createSynthesisService, type SynthesisService } from './synthesis-service';

let builtDir: string;
let cacheDir: string;
const services: SynthesisService[] = [];

async function start(warmUp: 'on' | 'off', log: (m: string) => void): Promise<SynthesisService> {
  const engineConfig = { provider: 'cpu', maxRunningSequences: 2, maxPrefillSequences: 2, maxSequenceTokens: 256, graphCapture: { mode: 'bound' }, warmUp };
  const service = await createSynthesisService({ model: builtDir, cacheDir, engineConfig }, () => {}, log);
  services.push(service);
  return service;
}

beforeAll(async () => {
  ({ builtDir } = await ensureTinyModel());
  cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-warm-'));
}, 120_000);

afterAll(async () => {
  for (const s of services) await s.dispose();
  fs.rmSync(cacheDir, { recursive: true, force: true });
});

describe('engine host start with a warm-up', () => {
  it('logs the warm-up before the host is set up, and its status reports the time and buckets', async () => {
    const lines: string[] = [];
    const service = await start('on', (m) => lines.push(m));
    const status = service.status();
    expect(status.state).toBe('ready');
    // maxSequenceTokens 256, blocks of 64: capacities 64, 128, 256 × decode rows 1, 2 = 6 talker buckets and 6 prefills;
    // code predictor rows 1, 2 × (sampled, greedy) = 4; codec rows 1, 2 × frames 1..8 = 16: 32 buckets, none left cold
    expect(status.warmUp?.numBuckets).toBe(32);
    expect(status.warmUp?.numBucketsLeftOut).toBe(0);
    expect(status.warmUp?.durationMs).toBeGreaterThan(0);
    const warmAt = lines.findIndex((l) => /^engine: warm-up 32 buckets in \d+ ms/.test(l));
    expect(warmAt).toBeGreaterThanOrEqual(0);
    // createEngine (with its warm-up) returns before the host logs its scheduler, and the host posts 'ready' after that
    expect(lines.findIndex((l) => l.startsWith('scheduler:'))).toBeGreaterThan(warmAt);
    // the engine was built with the host's scheduler, which takes the engine's per-step admission cap
    expect(lines.find((l) => l.startsWith('scheduler:'))).toContain('"maxPrefillSequences":2');
  }, 120_000);

  it('has no warm-up in its status with warmUp off', async () => {
    const lines: string[] = [];
    const service = await start('off', (m) => lines.push(m));
    expect(service.status().warmUp).toBeUndefined();
    expect(lines.some((l) => l.startsWith('engine: warm-up'))).toBe(false);
  }, 120_000);
});
