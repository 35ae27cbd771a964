/**
 * The lexicon editor's edits: <sub>/<phoneme> on a selected word or on every occurrence, change and
 * remove, escaped values (an X-SAMPA string holds quotes), and what the preview speaks — each result
 * read back by the generation parser (a sub's alias is what is spoken).
 */
import { describe, expect, it } from 'vitest';
import { parseSsml } from '../../src-main/ssml/parse-ssml';
import type { Edit } from './ssml-tuning';
import { applyPronunciation, listPronunciations, previewDocument, removePronunciation, updatePronunciation } from './pronunciations';

const DOC = '<speak>The W3C wrote it. Ask W3C, not W3Cx. <sub alias="x">W3C</sub></speak>';

function edit(result: Edit | string): Edit {
  if (typeof result === 'string') throw new Error(result);
  return result;
}

const spoken = (doc: string) =>
  parseSsml(doc)
    .segments.flatMap((s) => (s.kind === 'turn' ? [s.text] : []))
    .join(' ');

describe('pronunciations', () => {
  it('puts an alias on the selected word, grown to the whole word, and the parser speaks the alias', () => {
    const at = DOC.indexOf('W3C') + 1;
    const e = edit(applyPronunciation(DOC, at, at + 1, { kind: 'sub', alias: 'World Wide Web Consortium' }));
    expect(e.text).toContain('The <sub alias="World Wide Web Consortium">W3C</sub> wrote');
    expect(e.text.slice(e.anchor, e.head)).toBe('W3C');
    expect(spoken(e.text)).toContain('The World Wide Web Consortium wrote it.');
  });

  it('applies to every whole-word occurrence in plain text, not inside another pronunciation or a longer word', () => {
    const e = edit(applyPronunciation(DOC, DOC.indexOf('W3C'), DOC.indexOf('W3C') + 3, { kind: 'sub', alias: 'double-u three cee' }, true));
    expect(e.note).toBe('Applied to 2 occurrences of “W3C”.');
    expect(e.text).toBe('<speak>The <sub alias="double-u three cee">W3C</sub> wrote it. Ask <sub alias="double-u three cee">W3C</sub>, not W3Cx. <sub alias="x">W3C</sub></speak>');
    expect(listPronunciations(e.text)).toHaveLength(3);
    expect(() => parseSsml(e.text)).not.toThrow();
  });

  it('escapes phoneme strings (X-SAMPA quotes) so the document stays well formed, and lists them back unescaped', () => {
    const doc = '<speak>I say pecan.</speak>';
    const at = doc.indexOf('pecan');
    const e = edit(applyPronunciation(doc, at, at + 5, { kind: 'phoneme', alphabet: 'x-sampa', ph: '"pi.k{n' }));
    expect(e.text).toBe('<speak>I say <phoneme alphabet="x-sampa" ph="&quot;pi.k{n">pecan</phoneme>.</speak>');
    expect(() => parseSsml(e.text)).not.toThrow();
    expect(listPronunciations(e.text)).toEqual([expect.objectContaining({ word: 'pecan', pronunciation: { kind: 'phoneme', alphabet: 'x-sampa', ph: '"pi.k{n' } })]);
  });

  it('changes an entry (sub to phoneme too) and removes one, keeping its word', () => {
    const [entry] = listPronunciations(DOC);
    const changed = edit(updatePronunciation(DOC, entry, { kind: 'phoneme', alphabet: 'ipa', ph: 'dʌbəljuː' }));
    expect(changed.text).toContain('<phoneme alphabet="ipa" ph="dʌbəljuː">W3C</phoneme></speak>');
    expect(changed.text.slice(changed.anchor, changed.head)).toBe('W3C');
    expect(() => parseSsml(changed.text)).not.toThrow();
    const removed = removePronunciation(DOC, entry);
    expect(removed.text).toBe('<speak>The W3C wrote it. Ask W3C, not W3Cx. W3C</speak>');
    expect(listPronunciations(removed.text)).toEqual([]);
  });

  it('refuses empty values, markup in the selection and words inside another pronunciation, leaving the document alone', () => {
    const at = DOC.indexOf('wrote');
    expect(applyPronunciation(DOC, at, at + 5, { kind: 'sub', alias: '  ' })).toMatch(/alias/);
    expect(applyPronunciation(DOC, at, at + 5, { kind: 'phoneme', alphabet: 'ipa', ph: '' })).toMatch(/phonemes/);
    expect(applyPronunciation(DOC, at, DOC.indexOf('x">'), { kind: 'sub', alias: 'y' })).toMatch(/plain text/);
    const inSub = DOC.lastIndexOf('W3C');
    expect(applyPronunciation(DOC, inSub, inSub + 3, { kind: 'sub', alias: 'y' })).toMatch(/plain text/);
    expect(applyPronunciation(DOC, at, at, { kind: 'sub', alias: 'y' })).not.toMatch(/^</);
  });

  it('previews just the word, with the pronunciation being edited or as written', () => {
    expect(previewDocument('W3C', { kind: 'sub', alias: 'World Wide Web' })).toBe('<speak><sub alias="World Wide Web">W3C</sub></speak>');
    expect(spoken(previewDocument('R&D', { kind: 'sub', alias: 'R and D' }))).toBe('R and D');
    expect(previewDocument('R&D', null)).toBe('<speak>R&amp;D</speak>');
  });
});
