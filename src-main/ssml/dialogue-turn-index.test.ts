// Dialogue turns over the segment list: a new one only where the voice, voice description or
// language changes; prosody, emphasis, breaks, paragraphs, marks and audio split segments only.
import { describe, expect, it } from 'vitest';
import { parseSsml } from './parse-ssml';
import { numDialogueTurns } from './turn-builder';

const turnsOf = (ssml: string) => {
  const { segments } = parseSsml(ssml, { knownVoices: ['ryan', 'vivian'] });
  return { numTurns: numDialogueTurns(segments), parts: segments.flatMap((s) => (s.kind === 'turn' ? [`${s.dialogueTurnIndex}:${s.text}`] : [])) };
};

describe('dialogueTurnIndex', () => {
  it('keeps tuned words, emphasis, breaks, paragraphs, marks and audio in their turn', () => {
    const doc = '<speak><p>Hello <prosody rate="120%">there</prosody> <emphasis>friend</emphasis>.<break time="300ms"/>Again <mark name="m"/>now.</p><p>Next <audio src="ding.wav"/> paragraph.</p></speak>';
    expect(turnsOf(doc)).toEqual({ numTurns: 1, parts: ['0:Hello', '0:there', '0:friend.', '0:Again now.', '0:Next', '0:paragraph.'] });
  });

  it('starts a turn where the voice, the voice description or the language changes, and when it changes back', () => {
    const doc = '<speak>Narrator. <voice name="vivian">Hi <prosody pitch="+2st">you</prosody>.</voice><voice description="a calm old man">Hello.</voice><lang xml:lang="fr-FR">Bonjour.</lang> Back.</speak>';
    expect(turnsOf(doc)).toEqual({ numTurns: 5, parts: ['0:Narrator.', '1:Hi', '1:you.', '2:Hello.', '3:Bonjour.', '4:Back.'] });
  });
});
