/**
 * What the tuning controls write is SSML the generation parser accepts, with the values asked for:
 * prosody rate/pitch/volume, emphasis and breaks, in every dialect; selections that cut markup or
 * lie outside <speak> are refused without touching the document.
 */
import { describe, expect, it } from 'vitest';
import { parseSsml } from '../../src-main/ssml/parse-ssml';
import type { TurnSegment } from '../../src-main/ssml/segments';
import { addEmphasis, insertBreak, prosodyOpenTag, selectionProblem, tuneProsody, type Edit } from './ssml-tuning';

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

  it('refuses selections that cut markup, hold a tag, lie outside <speak> or are empty', () => {
    const tagged = '<speak>Hi <voice name="ryan">there</voice> you</speak>';
    expect(selectionProblem(tagged, tagged.indexOf('name'), tagged.indexOf('there'))).toMatch(/not markup/);
    expect(selectionProblem(tagged, tagged.indexOf('Hi'), tagged.indexOf(' you'))).toMatch(/not markup/);
    expect(selectionProblem(tagged, 0, 5)).toMatch(/inside <speak>/);
    expect(selectionProblem(tagged, 8, 8)).toMatch(/Select the words/);
    expect(selectionProblem('plain words', 0, 5)).toMatch(/no <speak>/);
    expect(selectionProblem(tagged, tagged.indexOf('there'), tagged.indexOf('there') + 5)).toBe('');
  });
});
