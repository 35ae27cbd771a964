// `studio bench --target inproc` speaks saved voices: a designed voice saved in the data folder's
// library (tiny synthetic 1.7B VoiceDesign model) is a workload's voice by name, in plain text and
// in the processed (SSML) workload, as the API speaks it: its description conditions the audio
// (plain text: other bytes than a name the library lacks, which a VoiceDesign model speaks
// undescribed; SSML: a <voice name> the library lacks is refused).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTinyVariant } from '../model-builder/tiny-model';
import { builtInWorkload } from '../bench/workloads';
import { createInprocVariant } from './inproc-bench-variants';
import { createStudioStack } from './studio-stack';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-saved-voice-'));
const userDataDir = path.join(tmp, 'data');
let model: string;

beforeAll(async () => {
  model = (await ensureTinyVariant({ size: 'tiny-1.7b', modelType: 'voice_design' })).builtDir;
  const stack = createStudioStack({ hostKind: 'headless', version: 'test', model, userDataDir, engineConfig: { provider: 'cpu' }, log: () => {} });
  try {
    await stack.host.start();
    const reply = await stack.dispatcher.dispatch('studio:voices.design', { name: 'Calm Narrator', description: 'a calm, low narrator' }, { callerId: 'w', role: 'admin', emit: () => {} });
    expect(reply.ok, JSON.stringify(reply)).toBe(true);
  } finally {
    await stack.dispose();
  }
}, 300_000);

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('inproc bench with a saved voice', () => {
  it('speaks the saved voice by name in the plain and processed workloads', { timeout: 180_000 }, async () => {
    const variant = createInprocVariant('batched', { model, provider: 'cpu', userDataDir, log: () => {} });
    const target = await variant.createTarget();
    try {
      const send = (workload: string, voice: string) => {
        const { request } = builtInWorkload(workload, voice, 'english');
        return target.synthesize({ ...request, text: request.text && 'Bench words.', seed: 5, stream: false }, new AbortController().signal);
      };
      const speak = async (workload: string, voice: string) => {
        const r = await send(workload, voice);
        expect(r.status, `${workload} ${voice}: ${r.errorMessage ?? ''}`).toBe(200);
        return Buffer.from(r.bytes).toString('base64');
      };
      for (const workload of ['plain', 'processed']) {
        expect(await speak(workload, 'calm narrator')).toBe(await speak(workload, 'Calm Narrator')); // by name, case-insensitively
      }
      expect(await speak('plain', 'calm narrator')).not.toBe(await speak('plain', 'nobody saved'));
      const unknown = await send('processed', 'nobody saved');
      expect([unknown.status, unknown.errorMessage]).toEqual([400, expect.stringMatching(/voice 'nobody saved' is not a speaker/)]);
    } finally {
      await target.dispose();
      await variant.teardown?.(target);
    }
  });
});
