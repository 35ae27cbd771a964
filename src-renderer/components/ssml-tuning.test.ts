/**
 * What the tuning controls write is SSML the generation parser accepts, with the values asked for:
 * prosody rate/pitch/volume, emphasis and breaks, in every dialect; selections that cut markup grow
 * to whole elements, changes are limited to the shared ranges, and selections outside <speak> are refused.
 */
import { describe, expect, it } from 'vitest';
import { parseSsml } from '../../src-main/ssml/parse-ssml';
import type { TurnSegment } from '../../src-main/ssml/segments';
import { addEmphasis, clearTuning, insertBreak, prosodyOpenTag, selectionProblem, tuneProsody, type Edit } from './ssml-tuning';

const DOC = '<speak>Hello there. This part is tuned. The end.</speak>';
const from = DOC.indexOf('This part');
const to = from + 'This part is tuned.'.length;

function edit(result: Edit | string): Edit {
  if (typeof result === 'string') throw new Error(result);
  return result;
}

function turns(text: string, dialect: 'auto' | 'ssml11' | 'azure' | 'google' | 'polly' = 'auto'): TurnSegment[] {
  return parseSsml(text, { dialect }).segments.filter((s): s is TurnSegment => s.kind === 'turn');
}

describe('SSML tuning', () => {
  it('wraps the selection in prosody the parser reads back as the same rate, pitch and volume, in every dialect', () => {
    const e = edit(tuneProsody(DOC, from, to, { ratePercent: 20, pitchSemitones: -2.5, volumeDb: 3 }));
    expect(e.text).toBe('<speak>Hello there. <prosody rate="+20%" pitch="-2.5st" volume="+3dB">This part is tuned.</prosody> The end.</speak>');
    expect(e.text.slice(e.anchor, e.head)).toBe('This part is tuned.');
    for (const dialect of ['auto', 'ssml11', 'azure', 'google', 'polly'] as const) {
      const tuned = turns(e.text, dialect).find((t) => t.text.includes('tuned'))!;
      expect(tuned).toMatchObject({ rate: 1.2, pitchSemitones: -2.5, volumeGainDb: 3 });
    }
  });

  it('writes only the attributes that change, and nothing when none does', () => {
    expect(prosodyOpenTag({ ratePercent: -10, pitchSemitones: 0, volumeDb: 0 })).toBe('<prosody rate="-10%">');
    expect(tuneProsody(DOC, from, to, { ratePercent: 0, pitchSemitones: 0, volumeDb: 0 })).toMatch(/away from 0/);
  });

  it('adds emphasis and pauses the parser accepts', () => {
    const emphasised = edit(addEmphasis(DOC, from, to, 'strong'));
    expect(turns(emphasised.text).find((t) => t.text.includes('tuned'))).toMatchObject({ rate: 0.9, pitchSemitones: 1, volumeGainDb: 3 });
    const paused = edit(insertBreak(emphasised.text, emphasised.text.indexOf(' The end'), 750));
    expect(paused.text).toContain('</emphasis><break time="750ms"/> The end');
    const breaks = parseSsml(paused.text).segments.filter((s) => s.kind === 'break');
    expect(breaks).toEqual([expect.objectContaining({ durationMs: 750 })]);
    expect(insertBreak(DOC, from, 20_000)).toBe('A pause is 50 to 10000 ms.');
  });

  it('grows a selection that cuts markup or words to whole words and elements, and refuses one outside <speak>, empty or unbalanced', () => {
    const tagged = '<speak>Hi <voice name="ryan">there</voice> you</speak>';
    const grown = edit(addEmphasis(tagged, tagged.indexOf('Hi') + 1, tagged.indexOf('there') + 2, 'strong'));
    expect(grown.text).toBe('<speak><emphasis level="strong">Hi <voice name="ryan">there</voice></emphasis> you</speak>');
    expect(grown.note).toMatch(/grown/);
    expect(() => parseSsml(grown.text)).not.toThrow();
    expect(selectionProblem(tagged, 0, 5)).toMatch(/inside <speak>/);
    expect(selectionProblem(tagged, 8, 8)).toMatch(/Select the words/);
    expect(selectionProblem('plain words', 0, 5)).toMatch(/no <speak>/);
    expect(selectionProblem('<speak>Hi <voice>there</speak>', 7, 9)).toMatch(/not balanced/);
    expect(selectionProblem(tagged, tagged.indexOf('there'), tagged.indexOf('there') + 5)).toBe('');
  });

  it('takes in a whole <sub> it sits in, and puts a pause after it rather than inside', () => {
    const doc = '<speak>Read <sub alias="World Wide Web">W3C</sub> now</speak>';
    const inSub = doc.indexOf('W3C') + 1;
    expect(edit(tuneProsody(doc, inSub, inSub + 1, { ratePercent: -10, pitchSemitones: 0, volumeDb: 0 })).text).toBe('<speak>Read <prosody rate="-10%"><sub alias="World Wide Web">W3C</sub></prosody> now</speak>');
    expect(edit(insertBreak(doc, inSub, 300)).text).toBe('<speak>Read <sub alias="World Wide Web">W3C</sub><break time="300ms"/> now</speak>');
  });

  it('limits a change that nesting would take out of range (the parser refuses 2.4×) and says so', () => {
    const doc = '<speak>Fast <prosody rate="+60%">and faster</prosody> words</speak>';
    const e = edit(tuneProsody(doc, doc.indexOf('Fast'), doc.indexOf(' words'), { ratePercent: 50, pitchSemitones: 0, volumeDb: 6 }));
    // 1.25 × 1.6 = 2.0: the most the outer change may be
    expect(e.text).toContain('<prosody rate="+25%" volume="+6dB">');
    expect(e.note).toMatch(/Rate limited to \+25%/);
    expect(() => parseSsml(e.text)).not.toThrow();
  });

  it('clears the innermost tuning around the caret, or the pauses in the selection', () => {
    const doc = '<speak><prosody rate="+20%">Some <emphasis level="strong">tuned</emphasis> words<break time="300ms"/></prosody> end</speak>';
    const inTuned = doc.indexOf('tuned') + 2;
    expect(edit(clearTuning(doc, inTuned, inTuned)).text).toBe('<speak><prosody rate="+20%">Some tuned words<break time="300ms"/></prosody> end</speak>');
    expect(edit(clearTuning(doc, doc.indexOf(' words'), doc.indexOf(' end'))).text).toBe('<speak><prosody rate="+20%">Some <emphasis level="strong">tuned</emphasis> words</prosody> end</speak>');
    expect(clearTuning(doc, doc.indexOf('end'), doc.indexOf('end'))).toMatch(/caret in tuned words/);
  });
});
