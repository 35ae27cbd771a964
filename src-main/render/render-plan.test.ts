/**
 * Splitting documents into render parts: chapters from headings and folders, paragraphs, long
 * paragraphs at sentence ends, SSML at top-level <p> only, and part ids that change with content,
 * voice, seed, parameters, model and the content of the saved voices spoken, but not with position.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { partId, planRender, splitSentences, splitSsml, textChapters, type RenderSettings } from './render-plan';
import type { SavedVoiceConditioning } from '../../src-shared/contract/voices';

const SETTINGS: RenderSettings = { voice: 'ryan', language: 'english', seed: 1, model: 'embedded:tiny' };

describe('render plan', () => {
  it('reads chapters from # headings and paragraphs from blank lines', () => {
    const chapters = textChapters('Intro line\nwrapped.\n\n# One\nA.\n\n\nB.\n# Two\n\nC.\n', 'book');
    expect(chapters).toEqual([
      { title: 'book', paragraphs: ['Intro line wrapped.'] },
      { title: 'One', paragraphs: ['A.', 'B.'] },
      { title: 'Two', paragraphs: ['C.'] },
    ]);
  });

  it('splits a long paragraph at sentence ends, keeping an over-long sentence whole', () => {
    expect(splitSentences('Short one.', 5)).toEqual(['Short one.']);
    expect(splitSentences('One two. Three four! Five six? Seven.', 20)).toEqual(['One two. Three four!', 'Five six? Seven.']);
    expect(splitSentences('A sentence that is far too long for the limit. B.', 10)).toEqual(['A sentence that is far too long for the limit.', 'B.']);
    expect(splitSentences('第一句。第二句！', 4)).toEqual(['第一句。', '第二句！']);
  });

  it('splits SSML at top-level <p> in copies of the root, and keeps anything else whole', () => {
    const root = '<speak version="1.1" xml:lang="en-US">';
    expect(splitSsml(`${root}<p>One.</p> <break time="1s"/><p>Two <emphasis>x</emphasis>.</p><!-- c --></speak>`)).toEqual([
      `${root}<p>One.</p></speak>`,
      `${root}<break time="1s"/><p>Two <emphasis>x</emphasis>.</p><!-- c --></speak>`,
    ]);
    for (const whole of [
      '<speak><voice name="ryan"><p>A.</p><p>B.</p></voice></speak>',
      '<speak>Bare text<p>A.</p></speak>',
      '<speak><p>Broken <prosody>tag</p></speak>',
      'not ssml at all',
    ]) {
      expect(splitSsml(whole)).toEqual([whole]);
    }
  });

  it('gives a part the same id wherever it stands, and another id for other settings', () => {
    const id = partId('Hello.', 'text', SETTINGS);
    expect(partId('Hello.', 'text', { ...SETTINGS })).toBe(id);
    for (const other of [{ voice: 'serena' }, { seed: 2 }, { model: 'other' }, { language: 'german' }, { params: { temperature: 0.5 } }]) {
      expect(partId('Hello.', 'text', { ...SETTINGS, ...other })).not.toBe(id);
    }
    expect(partId('Hello.', 'ssml', SETTINGS)).not.toBe(id);
  });

  it("gives a part spoken in a saved voice another id when the voice is made again under the same name", () => {
    const first: SavedVoiceConditioning = { id: 'v-0123456789ab', name: 'Anna', kind: 'clone', modelKind: 'base', modelSize: '0.6b', prompt: { mode: 'xvector', embedding: [0.1, -0.2, 0.3] } };
    const recloned: SavedVoiceConditioning = { ...first, prompt: { mode: 'xvector', embedding: [0.1, -0.2, 0.31] } };
    const anna = { ...SETTINGS, voice: 'anna' };
    const id = partId('Hello.', 'text', anna, [first]);
    expect(partId('Hello.', 'text', anna, [{ ...first, prompt: { mode: 'xvector', embedding: [0.1, -0.2, 0.3] } }])).toBe(id);
    expect(partId('Hello.', 'text', anna, [recloned])).not.toBe(id);
    expect(partId('Hello.', 'text', anna)).not.toBe(id);
    // a designed voice: its description is its content
    const designed: SavedVoiceConditioning = { id: 'v-ba9876543210', name: 'Anna', kind: 'design', modelKind: 'voice_design', modelSize: '1.7b', description: 'a calm low voice' };
    expect(partId('Hello.', 'text', anna, [designed])).not.toBe(partId('Hello.', 'text', anna, [{ ...designed, description: 'a bright high voice' }]));
    // planRender asks for each part's saved voices and hashes them in
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-plan-'));
    fs.writeFileSync(path.join(dir, 'a.txt'), 'One.\n\nTwo.\n');
    const before = planRender(path.join(dir, 'a.txt'), anna, { savedVoicesFor: () => [first] }).parts.map((p) => p.id);
    const after = planRender(path.join(dir, 'a.txt'), anna, { savedVoicesFor: () => [recloned] }).parts.map((p) => p.id);
    expect(before).toEqual([partId('One.', 'text', anna, [first]), partId('Two.', 'text', anna, [first])]);
    expect(after.filter((x) => before.includes(x))).toEqual([]);
    fs.rmSync(dir, { recursive: true });
  });

  it('plans a folder: files in name order as chapters, SSML files by their paragraphs', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-plan-'));
    fs.writeFileSync(path.join(dir, '2-b.ssml'), '<speak><p>X.</p><p>Y.</p></speak>');
    fs.writeFileSync(path.join(dir, '1-a.txt'), 'A one.\n\nA two.\n');
    fs.writeFileSync(path.join(dir, 'notes.bin'), 'ignored');
    const plan = planRender(dir, SETTINGS);
    expect(plan.chapters).toEqual([{ title: '1-a', numParts: 2 }, { title: '2-b', numParts: 2 }]);
    expect(plan.parts.map((p) => [p.index, p.chapter, p.inputFormat])).toEqual([[0, 0, 'text'], [1, 0, 'text'], [2, 1, 'ssml'], [3, 1, 'ssml']]);
    expect(() => planRender(path.join(dir, 'missing.txt'), SETTINGS)).toThrow(/does not exist/);
    fs.rmSync(dir, { recursive: true });
  });
});
