// The voice library end to end on the tiny synthetic Base model, through the real engine host: an MP3
// clip cloned into a saved voice (its clip copied into the data folder) speaks by id and by name on
// the HTTP API with the same bytes as its embedding passed by hand (x-vector; in-context with a
// transcript, the same bytes as its prompt's fields), and by name in SSML; /v1/voices
// lists it without the embedding; renames and deletes take effect; only the admin may change the
// library, clips by path only within the grants; bad clips and hostile input get clear errors.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SavedVoice } from '../../src-shared/contract/voices';
import type { SynthesisResult } from '../../src-shared/synthesis';
import type { CallContext } from '../api/dispatcher';
import { encodeAudio } from '../audio/encode-audio';
import { encodeWav } from '../audio/wav';
import { ensureTinyVariant } from '../model-builder/tiny-model';
import { clonePromptFields } from '../engine/voice-cloner';
import { postJson, serveTiny, type Served } from '../headless/testing/serve-tiny';
import { publicModelId } from '../models/model-store';

const admin: CallContext = { callerId: 'window', role: 'admin', emit: () => {} };
const client: CallContext = { callerId: 'remote', role: 'client', emit: () => {} };

/** 4 s of a voiced-like tone at 44.1 kHz between half-second silences. */
function referenceClip(rateHz = 44100): Float32Array {
  return Float32Array.from({ length: 5 * rateHz }, (_, i) => {
    const t = i / rateHz;
    if (t < 0.5 || t > 4.5) return 0;
    const phase = 2 * Math.PI * 140 * (t + 0.003 * Math.sin(2 * Math.PI * 4 * t));
    return 0.25 * Math.sin(phase) + 0.12 * Math.sin(2 * phase) + 0.06 * Math.sin(5 * phase);
  });
}

let served: Served;
let mp3: Uint8Array;

async function call<T>(channel: string, payload: unknown, ctx: CallContext = admin): Promise<{ ok: true; value: T } | { ok: false; error: { code: string; message: string } }> {
  return (await served.stack.dispatcher.dispatch(channel, payload, ctx)) as never;
}

async function value<T>(channel: string, payload: unknown): Promise<T> {
  const reply = await call<T>(channel, payload);
  if (!reply.ok) throw new Error(`${channel}: ${reply.error.code}: ${reply.error.message}`);
  return reply.value;
}

beforeAll(async () => {
  const { builtDir } = await ensureTinyVariant({ size: 'tiny', modelType: 'base' });
  served = await serveTiny(builtDir);
  mp3 = (await encodeAudio({ pcm: referenceClip(), sampleRateHz: 44100, format: 'mp3' })).bytes;
}, 300_000);

afterAll(async () => {
  await served?.dispose();
});

describe('voice library on a Base model', () => {
  let anna: SavedVoice;

  it('clones an MP3 clip into a saved voice and copies the clip into the data folder', async () => {
    anna = await value<SavedVoice>('studio:voices.clone', { name: '  Anna  Reads ', audio: mp3, originalName: 'anna.mp3' });
    expect(anna).toMatchObject({ name: 'Anna Reads', kind: 'clone', cloneMode: 'xvector', description: null, model: { kind: 'base', size: expect.any(String) } });
    expect(anna.id).toMatch(/^v-[0-9a-f]{12}$/);
    expect(anna.clip).toMatchObject({ originalName: 'anna.mp3', fileName: `${anna.id}.mp3`, sizeBytes: mp3.byteLength });
    expect(anna.clip!.durationMs).toBeGreaterThan(3800);
    const copy = path.join(served.stack.userDataDir, 'library', 'voices', anna.clip!.fileName);
    expect(new Uint8Array(readFileSync(copy))).toEqual(mp3);
    expect(await value<SavedVoice[]>('studio:voices.list', {})).toEqual([anna]);
  });

  it('speaks it by id and by name with the bytes of its embedding passed by hand', async () => {
    const byId = await postJson(`${served.server.url}/v1/audio/speech`, { input: 'Hello there.', voice: anna.id, response_format: 'wav', seed: 5 });
    expect(byId.status).toBe(200);
    const byName = await postJson(`${served.server.url}/api/v1/tts`, { text: 'Hello there.', voice: 'anna reads', response_format: 'wav', seed: 5 });
    expect(byName.status).toBe(200);
    expect(byName.bytes).toEqual(byId.bytes);
    const made = await served.stack.host.call('makeVoice', { audio: mp3 });
    const direct = (await served.stack.host.call('synthesize', { requestId: 'direct', input: 'Hello there.', inputFormat: 'text', voice: '', language: 'auto', seed: 5, speakerEmbedding: made.prompt.embedding })) as SynthesisResult;
    const viaLibrary = await value<SynthesisResult>('studio:tts.synthesize', { requestId: 'lib', input: 'Hello there.', inputFormat: 'text', voice: anna.id, language: 'auto', seed: 5 });
    expect(viaLibrary.pcm).toEqual(direct.pcm);
    expect(viaLibrary.effectiveParams.voice).toBe('Anna Reads');
  });

  it('clones in-context when given the transcript, and speaks with the bytes of its prompt by hand', async () => {
    const icl = await value<SavedVoice>('studio:voices.clone', { name: 'Anna ICL', audio: mp3, originalName: 'anna.mp3', refText: 'A steady tone.' });
    expect(icl.cloneMode).toBe('icl');
    const made = await served.stack.host.call('makeVoice', { audio: mp3, refText: 'A steady tone.' });
    expect(made.prompt).toMatchObject({ mode: 'icl', refText: 'A steady tone.' });
    expect(made.prompt.refCodes!.length).toBeGreaterThan(40); // 12.5 frames a second of the ~4 s trimmed clip
    const direct = (await served.stack.host.call('synthesize', { requestId: 'direct-icl', input: 'Hello there.', inputFormat: 'text', voice: '', language: 'auto', seed: 5, ...clonePromptFields(made.prompt) })) as SynthesisResult;
    const viaLibrary = await value<SynthesisResult>('studio:tts.synthesize', { requestId: 'lib-icl', input: 'Hello there.', inputFormat: 'text', voice: 'anna icl', language: 'auto', seed: 5 });
    expect(viaLibrary.pcm).toEqual(direct.pcm);
    const xvector = await value<SynthesisResult>('studio:tts.synthesize', { requestId: 'lib-x', input: 'Hello there.', inputFormat: 'text', voice: anna.id, language: 'auto', seed: 5 });
    expect(xvector.pcm).not.toEqual(viaLibrary.pcm);
    await value('studio:voices.delete', { id: icl.id });
  });

  it('resolves <voice name> in SSML to the saved voice', async () => {
    const ssml = '<speak><voice name="Anna Reads">One.</voice> <voice name="ANNA READS">Two.</voice></speak>';
    const res = await postJson(`${served.server.url}/api/v1/tts`, { ssml, voice: anna.id, response_format: 'wav', seed: 1 });
    expect(res.status).toBe(200);
    const unknown = await postJson(`${served.server.url}/api/v1/tts`, { ssml: '<speak><voice name="Nobody">x</voice></speak>', voice: anna.id });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.json())).toMatch(/Nobody.*Anna Reads/);
    // the editor's live check accepts the saved voice's name too
    expect(await value('studio:ssml.validate', { text: '<speak><voice name="anna reads">x</voice></speak>' })).toMatchObject({ ok: true, numTurns: 1 });
    expect(await value('studio:ssml.validate', { text: '<speak><voice name="Nobody">x</voice></speak>' })).toMatchObject({ ok: false });
  });

  it('answers hostile voice values with a 400 naming the field', async () => {
    for (const voice of ['../../etc/passwd', 'v-0123456789ab', 'anna reads\u0000', { id: 'x'.repeat(65) }, 'x'.repeat(65)]) {
      const res = await postJson(`${served.server.url}/v1/audio/speech`, { input: 'Hi.', voice });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.json())).toMatch(/voice/);
    }
    const object = await postJson(`${served.server.url}/v1/audio/speech`, { input: 'Hi.', voice: { id: anna.id }, response_format: 'wav' });
    expect(object.status).toBe(200);
  });

  it('runs the benchmark in-process in a saved voice', async () => {
    const finished = new Promise<{ status: string; error: string | null; passes: { numErrors: number }[] }>((resolve) => {
      const ctx: CallContext = { callerId: 'bench', role: 'admin', emit: (event, payload) => event === 'studio:bench.onDidFinishRun' && resolve(payload as never) };
      void served.stack.dispatcher
        .dispatch('studio:bench.start', { variants: [{ name: 'a', target: 'inproc' }], workloads: ['plain'], clientCounts: [1], windowMs: 1000, numPasses: 1, voice: anna.id }, ctx)
        .then((reply) => !reply.ok && resolve({ status: 'refused', error: reply.error.message, passes: [] }));
    });
    const view = await finished;
    expect(view.error).toBeNull();
    expect(view.status).toBe('done');
    // Without the voice's embedding the Base model would refuse every request: errors, no audio.
    expect(view.passes).toEqual([expect.objectContaining({ numErrors: 0 })]);
  }, 120_000);

  it('lists saved voices on GET /v1/voices without embeddings or paths', async () => {
    const body = (await (await fetch(`${served.server.url}/v1/voices`)).json()) as { saved: SavedVoice[] };
    // The model a voice was made with is named, but a model loaded from a folder not by its path.
    expect(body.saved).toEqual([{ ...anna, model: { ...anna.model, id: publicModelId(anna.model.id) } }]);
    expect(JSON.stringify(body)).not.toMatch(/embedding|studio-http-/);
    expect(JSON.stringify(body)).not.toContain(path.dirname(anna.model.id));
  });

  it('refuses bad clips, taken and unusable names, and a design voice on a Base model', async () => {
    const silent = encodeWav(new Float32Array(48000), 24000, 'pcm16');
    expect(await call('studio:voices.clone', { name: 'Quiet', audio: silent })).toMatchObject({ ok: false, error: { code: 'invalid-argument', message: expect.stringMatching(/silent/) } });
    const short = encodeWav(referenceClip(24000).subarray(12000, 24000), 24000, 'float32');
    expect(await call('studio:voices.clone', { name: 'Short', audio: short })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/at least 1 s is needed/) } });
    expect(await call('studio:voices.clone', { name: 'ANNA reads', audio: mp3 })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/already called 'Anna Reads'/) } });
    expect(await call('studio:voices.clone', { name: 'ryan', audio: mp3 })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/built-in voice/) } });
    expect(await call('studio:voices.clone', { name: '<script>', audio: mp3 })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/not usable/) } });
    expect(await call('studio:voices.clone', { name: 'Both', audio: mp3, path: '/etc/passwd' })).toMatchObject({ ok: false, error: { code: 'invalid-argument' } });
    expect(await call('studio:voices.design', { name: 'Calm', description: 'a calm elderly woman' })).toMatchObject({
      ok: false,
      error: { code: 'unsupported', message: expect.stringMatching(/needs a VoiceDesign model but the loaded one is Base 0.6B; pull Qwen3-TTS-12Hz-1.7B-VoiceDesign/) },
    });
    expect((await value<SavedVoice[]>('studio:voices.list', {})).map((v) => v.name)).toEqual(['Anna Reads']);
  });

  it('takes clips by path only inside the grants, and library changes from the admin only', async () => {
    const outside = path.join(mkdtempSync(path.join(os.tmpdir(), 'voice-clip-')), 'clip.mp3');
    writeFileSync(outside, mp3);
    expect(await call('studio:voices.clone', { name: 'Outside', path: outside })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    served.stack.grants.grant(outside, 'read', 'file');
    const granted = await value<SavedVoice>('studio:voices.clone', { name: 'Granted', path: outside });
    expect(granted.clip).toMatchObject({ originalName: 'clip.mp3' });
    for (const [channel, payload] of [
      ['studio:voices.clone', { name: 'X', audio: mp3 }],
      ['studio:voices.rename', { id: anna.id, name: 'Y' }],
      ['studio:voices.delete', { id: anna.id }],
    ] as const) {
      expect(await call(channel, payload, client)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
    expect(await call('studio:voices.list', {}, client)).toMatchObject({ ok: true });
    await value('studio:voices.delete', { id: granted.id });
  });

  it('renames (the new name speaks, the id stays) and deletes (clip file gone, the id refused)', async () => {
    const renamed = await value<SavedVoice>('studio:voices.rename', { id: anna.id, name: 'Narrator' });
    expect(renamed).toMatchObject({ id: anna.id, name: 'Narrator' });
    expect((await postJson(`${served.server.url}/api/v1/tts`, { text: 'Hi.', voice: 'Narrator', seed: 1 })).status).toBe(200);
    expect(await value('studio:voices.delete', { id: anna.id })).toEqual({ deleted: true });
    expect(existsSync(path.join(served.stack.userDataDir, 'library', 'voices', anna.clip!.fileName))).toBe(false);
    expect(await value('studio:voices.delete', { id: anna.id })).toEqual({ deleted: false });
    const gone = await postJson(`${served.server.url}/v1/audio/speech`, { input: 'Hi.', voice: anna.id });
    expect(gone.status).toBe(400);
    expect(await call('studio:voices.rename', { id: '../../etc', name: 'Z' })).toMatchObject({ ok: false, error: { code: 'invalid-argument' } });
  });
});
