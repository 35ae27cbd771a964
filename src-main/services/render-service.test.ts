/**
 * The Render page's service on a fake engine host (a tone per part, its length from the text):
 * a render reports progress per chapter, its WAV is the CLI's assembly of the same parts byte for
 * byte and lands in the Library; retries and failures carry reasons; cancel stops it; a restart
 * lists it 'interrupted' and Resume renders only the missing parts (and all of them after a saved
 * voice is made again under its name); paths go through the grants.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import type { RenderJob } from '../../src-shared/contract/render';
import type { ClipRecord, NewClip } from '../../src-shared/contract/library';
import { FileGrants } from '../access/file-grants';
import { planRender } from '../render/render-plan';
import { assembleWork } from '../render/render-parts';
import { measureIntegratedLoudness } from '../audio/loudness';
import { decodeWav } from '../audio/wav';
import { RenderService, type RenderServiceOptions } from './render-service';
import { asHost, fakeRenderHost as fakeHost, MODEL, RATE } from '../render/testing/fake-render-host';
import type { SavedVoiceConditioning } from '../../src-shared/contract/voices';
import { tempDirs } from '../platform/testing/temp-dirs';

const DOC = '# One\n\nFirst paragraph.\n\nSecond one, longer.\n\n# Two\n\nThird and last paragraph here.\n';

const tempDir = tempDirs('studio-render-svc-');

function setup(host = fakeHost(), extra: Partial<RenderServiceOptions> = {}) {
  const dataDir = tempDir();
  const events: RenderJob[] = [];
  const clips: { clip: NewClip; pcm: Float32Array }[] = [];
  const options: RenderServiceOptions = {
    dataDir,
    host: asHost(host),
    concurrency: 2,
    openProject: async () => ({ project: { editor: { text: 'From a project.\n\nTwo paragraphs.', inputFormat: 'text' }, name: 'Proj' } as never }),
    saveToLibrary: async (clip, pcm) => (clips.push({ clip, pcm }), { id: `clip-${clips.length}` } as ClipRecord),
    onDidChange: (job) => events.push(job),
    ...extra,
  };
  return { dataDir, host, events, clips, options, service: new RenderService(options) };
}

const start = (service: RenderService, text = DOC) => service.start({ source: { kind: 'text', text, inputFormat: 'text', title: 'My Book' }, voice: 'Ryan', language: 'auto', seed: 7 });

describe('RenderService', () => {
  it('renders every part with progress per chapter, writes the CLI assembly and saves it to the Library', async () => {
    const { service, events, clips, dataDir } = setup();
    const job = await start(service);
    expect(job).toMatchObject({ state: 'running', mode: 'local', numParts: 3, title: 'My Book', voice: 'ryan' });
    await service.settled(job.id);
    const done = service.list()[0];
    expect(done).toMatchObject({ state: 'done', numDone: 3, numFailed: 0, clipId: 'clip-1', error: null });
    expect(done.chapters).toEqual([{ title: 'One', numDone: 2, numParts: 2 }, { title: 'Two', numDone: 1, numParts: 1 }]);
    // one event per finished part after the first progress: counts 0..3 all seen, in order
    const counts = events.map((e) => e.numDone).filter((n, i, a) => i === 0 || n !== a[i - 1]);
    expect(counts).toEqual([0, 1, 2, 3]);
    const plan = planRender(path.join(dataDir, 'renders', job.id, 'document.txt'), { voice: 'ryan', language: 'auto', seed: 7, model: MODEL.id });
    expect(Buffer.from(fs.readFileSync(done.outputPath!)).equals(Buffer.from(assembleWork(plan, done.outputDir).wav))).toBe(true);
    expect(path.basename(done.outputPath!)).toBe('my-book.wav');
    expect(clips[0].clip).toMatchObject({ title: 'My Book', input: DOC, inputFormat: 'text', voice: 'ryan', seed: 7, params: { temperature: 0.9 } });
    expect(done.durationMs).toBe(Math.round((clips[0].pcm.length / RATE) * 1000));
  });

  it('assembles the whole work at the loudness target the request gives (one gain; the parts are the same)', async () => {
    const { service } = setup();
    const measured: number[] = [];
    for (const targetLufs of [-20, -30]) {
      const job = await service.start({ source: { kind: 'text', text: DOC, inputFormat: 'text', title: `Loud ${targetLufs}` }, voice: 'ryan', language: 'auto', seed: 7, loudness: { targetLufs, truePeakCeilingDbtp: -1 } });
      await service.settled(job.id);
      const done = service.list().find((j) => j.id === job.id)!;
      expect(done.state).toBe('done');
      const { pcm, sampleRateHz } = decodeWav(new Uint8Array(fs.readFileSync(done.outputPath!)));
      measured.push(measureIntegratedLoudness(pcm, sampleRateHz));
    }
    expect(measured[0]).toBeCloseTo(-20, 0);
    expect(measured[1]).toBeCloseTo(-30, 0);
  });

  it('shows retries with their reason and fails a part that cannot succeed, finishing the rest', async () => {
    const host = fakeHost();
    host.failing.set('First paragraph.', ['engine-crashed: engine 0 died']);
    host.failing.set('Second one, longer.', ['ssml', 'ssml']);
    const { service } = setup(host);
    const job = await start(service);
    await service.settled(job.id);
    const failed = service.list()[0];
    expect(failed).toMatchObject({ state: 'failed', numDone: 2, numFailed: 1, outputPath: null });
    expect(failed.retries).toEqual([{ partIndex: 0, attempt: 1, reason: 'engine-crashed: engine-crashed: engine 0 died' }]);
    expect(failed.failures).toEqual([{ partIndex: 1, chapter: 0, reason: 'ssml-invalid: ssml' }]);
    expect(failed.error).toMatch(/1 of 3 parts failed; fix them and Resume/);
    // the cause is gone: Resume renders only the failed part
    host.failing.clear();
    const before = host.synthesized.length;
    await service.resume(job.id);
    await service.settled(job.id);
    expect(service.list()[0].state).toBe('done');
    expect(host.synthesized.slice(before)).toEqual(['Second one, longer.']);
  });

  it('cancels the parts in flight and starts no new one', async () => {
    const host = fakeHost();
    host.hanging.add('paragraph');
    const { service } = setup(host, { concurrency: 1 });
    const job = await start(service);
    await new Promise((r) => setTimeout(r, 20));
    expect(service.cancel(job.id)).toBe(true);
    await service.settled(job.id);
    expect(service.list()[0]).toMatchObject({ state: 'cancelled', numDone: 0, failures: [] });
    expect(host.cancelled).toHaveLength(1);
    expect(host.synthesized).toEqual([]);
    expect(service.cancel(job.id)).toBe(false);
  });

  it('lists a render cut off by a restart as interrupted, and Resume renders only the missing parts', async () => {
    const host = fakeHost();
    host.hanging.add('Third');
    const first = setup(host);
    const job = await start(first.service);
    await new Promise((r) => setTimeout(r, 20));
    expect(first.service.list()[0]).toMatchObject({ state: 'running', numDone: 2 });
    // a crash: nothing runs any more, the record on disk still says 'running'
    const restarted = new RenderService({ ...first.options, host: asHost(fakeHost()) });
    expect(restarted.list()[0]).toMatchObject({ id: job.id, state: 'interrupted', numDone: 2 });
    const fresh = fakeHost();
    const resumed = new RenderService({ ...first.options, host: asHost(fresh) });
    await resumed.resume(job.id);
    await resumed.settled(job.id);
    expect(resumed.list()[0]).toMatchObject({ state: 'done', numDone: 3 });
    expect(fresh.synthesized).toEqual(['Third and last paragraph here.']);
    await first.service.dispose();
    expect(first.service.list()[0].state).toBe('interrupted');
  });

  it('renders every part again after a saved voice is made again under the same name', async () => {
    const host = fakeHost();
    let anna: SavedVoiceConditioning = { id: 'v-0123456789ab', name: 'Anna', kind: 'clone', modelKind: 'base', modelSize: '0.6b', prompt: { mode: 'xvector', embedding: [0.1, 0.2] } };
    const { service } = setup(host, { savedVoicesFor: (req) => (req.voice === 'anna' ? [anna] : []) });
    const job = await service.start({ source: { kind: 'text', text: DOC, inputFormat: 'text', title: 'Anna' }, voice: 'Anna', language: 'auto', seed: 7 });
    await service.settled(job.id);
    expect(service.list()[0]).toMatchObject({ state: 'done', numDone: 3 });
    expect(host.synthesized).toHaveLength(3);
    // the same parts with the same voice: nothing to render
    await service.resume(job.id);
    await service.settled(job.id);
    expect(host.synthesized).toHaveLength(3);
    // Anna cloned again from another clip, under the same name: every part speaks the new voice
    anna = { ...anna, id: 'v-ba9876543210', prompt: { mode: 'xvector', embedding: [0.3, -0.1] } };
    await service.resume(job.id);
    await service.settled(job.id);
    expect(service.list()[0]).toMatchObject({ state: 'done', numDone: 3 });
    expect(host.synthesized).toHaveLength(6);
  });

  it('reads files and writes folders only through the grants, and a project by its document', async () => {
    const { service, dataDir, options } = setup();
    const outside = path.join(dataDir, 'outside.txt');
    fs.writeFileSync(outside, 'A file.\n\nWith two paragraphs.');
    const req = { voice: 'ryan', language: 'auto', seed: 1 };
    await expect(service.start({ ...req, source: { kind: 'file', path: outside } })).rejects.toMatchObject({ code: 'forbidden' });
    const granted = new RenderService({ ...options, grants: new FileGrants([{ path: outside, scope: 'file', access: 'read' }]) });
    const fromFile = await granted.start({ ...req, source: { kind: 'file', path: outside } });
    expect(fromFile).toMatchObject({ title: 'outside', numParts: 2 });
    await expect(granted.start({ ...req, source: { kind: 'text', text: 'x', inputFormat: 'text', title: 't' }, outputDir: path.join(dataDir, 'elsewhere') })).rejects.toMatchObject({ code: 'forbidden' });
    const fromProject = await service.start({ ...req, source: { kind: 'project', path: '/p/proj.json' } });
    expect(fromProject).toMatchObject({ title: 'Proj', numParts: 2 });
    await Promise.all([granted.settled(fromFile.id), service.settled(fromProject.id)]);
  });

  it('keeps the queue URL in the data folder and refuses anything but redis URLs', () => {
    const { service, options } = setup();
    expect(service.readQueueUrl()).toBeNull();
    expect(service.setQueueUrl(' redis://q:6379 ')).toEqual({ queueUrl: 'redis://q:6379' });
    expect(new RenderService(options).readQueueUrl()).toBe('redis://q:6379');
    expect(() => service.setQueueUrl('http://q')).toThrow(/redis:\/\/ or rediss:\/\//);
    expect(service.setQueueUrl(null)).toEqual({ queueUrl: null });
  });

  it('refuses a document with no text before anything runs', async () => {
    const { service } = setup();
    await expect(start(service, '\n\n')).rejects.toThrow(/has no text to render/);
    await expect(service.resume('nope')).rejects.toMatchObject({ code: 'not-found' });
  });
});
