// `studio voice` on the tiny synthetic Base model in a temporary data folder: clone an MP3 (sox-made
// fixture) under a name, list it, speak it with `studio synth --voice <name>` (text and SSML), refuse
// a taken name and a model that cannot clone, rename and delete it; add samples to a cloned voice,
// pick the one it speaks with (the audio follows), and refuse samples of a designed voice.
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureTinyVariant } from '../model-builder/tiny-model';
import { runCli } from './cli';

const CLIP = path.resolve(import.meta.dirname, '../audio/fixtures/clip-stereo-44k.mp3');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'studio-voice-cli-'));
let baseModel: string;
let customModel: string;
const previous = process.env.STUDIO_DATA_DIR;

function capture(): { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
  vi.spyOn(console, 'log').mockImplementation((...a) => void out.push(a.join(' ')));
  return { out, err };
}

beforeAll(async () => {
  process.env.STUDIO_DATA_DIR = dataDir;
  baseModel = (await ensureTinyVariant({ size: 'tiny', modelType: 'base' })).builtDir;
  customModel = (await ensureTinyVariant({ size: 'tiny', modelType: 'custom_voice' })).builtDir;
}, 300_000);
afterEach(() => vi.restoreAllMocks());
afterAll(() => {
  if (previous === undefined) delete process.env.STUDIO_DATA_DIR;
  else process.env.STUDIO_DATA_DIR = previous;
});

describe('studio voice', () => {
  it('clones, lists, speaks, renames and deletes a saved voice', async () => {
    let io = capture();
    expect(await runCli(['voice', 'clone', CLIP, '--name', 'Anna', '--model', baseModel, '--provider', 'cpu'])).toBe(0);
    expect(io.out.join('\n')).toMatch(/^v-[0-9a-f]{12} {2}Anna .*cloned x-vector \(0\.6B Base, 2\.\d s of clip-stereo-44k\.mp3\)/);
    expect(io.err.join('')).toMatch(/warning: the reference clip is only 2\.\d s long/);
    expect(readdirSync(path.join(dataDir, 'library', 'voices'))).toEqual([expect.stringMatching(/^v-[0-9a-f]{12}\.mp3$/)]);
    vi.restoreAllMocks();

    io = capture();
    expect(await runCli(['voice', 'clone', CLIP, '--name', 'Anna ICL', '--text', 'A steady tone.', '--model', baseModel, '--provider', 'cpu'])).toBe(0);
    expect(io.out.join('\n')).toMatch(/Anna ICL .*cloned in-context/);
    expect(await runCli(['voice', 'delete', 'anna icl'])).toBe(0);
    vi.restoreAllMocks();

    io = capture();
    expect(await runCli(['voice', 'list', '--json'])).toBe(0);
    const [anna] = JSON.parse(io.out.join('')) as { id: string; name: string }[];
    expect(anna.name).toBe('Anna');
    vi.restoreAllMocks();

    const wav = path.join(dataDir, 'anna.wav');
    const ssml = path.join(dataDir, 'anna.xml');
    writeFileSync(ssml, '<speak><voice name="ANNA">Hi there.</voice></speak>');
    io = capture();
    expect(await runCli(['synth', 'Hello there.', '--voice', 'anna', '--model', baseModel, '--provider', 'cpu', '-o', wav])).toBe(0);
    expect(existsSync(wav)).toBe(true);
    expect(await runCli(['synth', '--ssml', ssml, '--voice', anna.id, '--model', baseModel, '--provider', 'cpu', '-o', wav])).toBe(0);
    vi.restoreAllMocks();

    io = capture();
    expect(await runCli(['voice', 'clone', CLIP, '--name', 'anna', '--model', baseModel])).toBe(2);
    expect(io.err.join('')).toMatch(/already called 'Anna'/);
    expect(await runCli(['voice', 'clone', CLIP, '--name', 'Other', '--model', customModel, '--provider', 'cpu'])).toBe(1);
    expect(io.err.join('')).toMatch(/needs a Base model but the loaded one is CustomVoice 0.6B\nfix: pull Qwen3-TTS-12Hz-0.6B-Base/);
    vi.restoreAllMocks();

    io = capture();
    expect(await runCli(['voice', 'rename', 'anna', 'Narrator'])).toBe(0);
    expect(await runCli(['voice', 'delete', anna.id])).toBe(0);
    expect(io.out.join('\n')).toMatch(/Narrator[\s\S]*deleted Narrator/);
    expect(readdirSync(path.join(dataDir, 'library', 'voices'))).toEqual([]);
  }, 120_000);

  it('adds samples to a cloned voice, lists them, picks the one it speaks with, and refuses what cannot be', async () => {
    const OTHER_CLIP = path.resolve(import.meta.dirname, '../audio/fixtures/clip-mono-16k.flac');
    const speak = async (out: string): Promise<Buffer> => {
      expect(await runCli(['synth', 'Same words each time.', '--voice', 'Bea', '--seed', '3', '--model', baseModel, '--provider', 'cpu', '-o', out])).toBe(0);
      return readFileSync(out);
    };
    let io = capture();
    expect(await runCli(['voice', 'clone', CLIP, '--name', 'Bea', '--model', baseModel, '--provider', 'cpu'])).toBe(0);
    const first = await speak(path.join(dataDir, 'bea-1.wav'));
    vi.restoreAllMocks();

    // a new sample does not change the voice until it is picked
    io = capture();
    expect(await runCli(['voice', 'add-sample', 'bea', OTHER_CLIP, '--text', 'A steady tone.', '--model', baseModel, '--provider', 'cpu'])).toBe(0);
    expect(io.out.join('\n')).toMatch(/^ {3}2 {2}s-[0-9a-f]{8} in-context .* s of clip-mono-16k\.flac/);
    expect((await speak(path.join(dataDir, 'bea-2.wav'))).equals(first)).toBe(true);
    vi.restoreAllMocks();

    io = capture();
    expect(await runCli(['voice', 'samples', 'Bea'])).toBe(0);
    expect(io.out).toEqual([expect.stringMatching(/^\* {2}1 {2}s-0 +x-vector .* of clip-stereo-44k\.mp3/), expect.stringMatching(/^ {3}2 {2}s-[0-9a-f]{8} in-context /)]);
    expect(await runCli(['voice', 'samples', 'Bea', '--json'])).toBe(0);
    const listed = JSON.parse(io.out.slice(2).join('')) as { activeSampleId: string; samples: { sampleId: string }[] };
    expect(listed.activeSampleId).toBe(listed.samples[0].sampleId);
    vi.restoreAllMocks();

    // picked by number: the voice now speaks from the second clip, and the audio follows
    io = capture();
    expect(await runCli(['voice', 'use-sample', 'Bea', '2'])).toBe(0);
    expect(io.out[1]).toMatch(/^\* {2}2 /);
    const second = await speak(path.join(dataDir, 'bea-3.wav'));
    expect(second.equals(first)).toBe(false);
    // and back by id: the first sample's bytes again
    expect(await runCli(['voice', 'use-sample', 'Bea', listed.samples[0].sampleId])).toBe(0);
    expect((await speak(path.join(dataDir, 'bea-4.wav'))).equals(first)).toBe(true);
    vi.restoreAllMocks();

    // --use picks the new sample at once; then three samples are listed
    io = capture();
    expect(await runCli(['voice', 'add-sample', 'Bea', CLIP, '--use', '--model', baseModel, '--provider', 'cpu'])).toBe(0);
    expect(io.out.join('\n')).toMatch(/^\* {2}3 /);
    vi.restoreAllMocks();

    io = capture();
    expect(await runCli(['voice', 'use-sample', 'Bea', '4'])).toBe(2);
    expect(await runCli(['voice', 'use-sample', 'Bea', 's-deadbeef'])).toBe(2);
    expect(io.err.join('')).toMatch(/'Bea' has no sample '4' \(it has 3\)\nfix: give a number from 1 to 3 or an id/);
    expect(await runCli(['voice', 'add-sample', 'Bea', CLIP, '--model', customModel, '--provider', 'cpu'])).toBe(1);
    expect(io.err.join('')).toMatch(/needs a Base model but the loaded one is CustomVoice 0.6B/);
    expect(await runCli(['voice', 'samples', 'nobody'])).toBe(2);
    expect(io.err.join('')).toMatch(/no saved voice 'nobody'/);
    vi.restoreAllMocks();

    // a designed voice keeps no samples
    io = capture();
    const designModel = (await ensureTinyVariant({ size: 'tiny', modelType: 'voice_design' })).builtDir;
    expect(await runCli(['voice', 'design', 'A calm low voice.', '--name', 'Cal', '--model', designModel, '--provider', 'cpu'])).toBe(0);
    expect(await runCli(['voice', 'samples', 'Cal'])).toBe(2);
    expect(await runCli(['voice', 'add-sample', 'Cal', CLIP, '--model', baseModel, '--provider', 'cpu'])).toBe(2);
    expect(io.err.join('')).toMatch(/'Cal' is a designed voice; only cloned voices keep reference samples/);
    expect(await runCli(['voice', 'delete', 'Cal'])).toBe(0);
    expect(await runCli(['voice', 'delete', 'Bea'])).toBe(0);
    expect(readdirSync(path.join(dataDir, 'library', 'voices'))).toEqual([]);
  }, 240_000);
});
