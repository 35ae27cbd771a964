// Property: for any generated document the turns, read in order, say exactly the document's
// speakable text (its words and punctuation, with sub aliases and say-as spellings in place), no
// turn is punctuation only, and no word is glued to a neighbour across markup. The generator
// builds each document together with its reference speakable text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSsml } from './parse-ssml';

const NUM_RUNS = 3_000;

interface Piece {
  xml: string;
  /** The speakable text this piece contributes, space-separated tokens. */
  speak: string[];
}

const word = fc.constantFrom('alpha', 'Bravo', 'charlie', 'delta42', 'echo', 'Foxtrot', '7', 'golf', 'hôtel', 'india').map((w): Piece => ({ xml: ` ${w} `, speak: [w] }));
const punctuation = fc.constantFrom(',', '!', '?', ';', ':', '!?', '…').map((p): Piece => ({ xml: `${p} `, speak: [p] }));
const opening = fc.constantFrom('(', '“').map((p): Piece => ({ xml: ` ${p}`, speak: [p] }));
const closing = fc.constantFrom(')', '”').map((p): Piece => ({ xml: `${p} `, speak: [p] }));
const sub = fc.constantFrom(['W3C', 'World Wide Web'], ['Hg', 'mercury']).map(([w, alias]): Piece => ({ xml: ` <sub alias="${alias}">${w}</sub> `, speak: alias.split(' ') }));
const spelled = fc.constantFrom('ab', 'XyZ', 'q').map((w): Piece => ({ xml: ` <say-as interpret-as="characters">${w}</say-as> `, speak: [...w.toUpperCase()] }));
const empty = fc.constantFrom('<break time="100ms"/>', '<break strength="weak"/>', '<mark name="m"/>', '<break strength="none"/>').map((x): Piece => ({ xml: ` ${x} `, speak: [] }));
const wrappers = ['<voice name="ryan">|</voice>', '<voice name="serena">|</voice>', '<prosody rate="1.2">|</prosody>', '<prosody pitch="+2st" volume="-3dB">|</prosody>', '<emphasis>|</emphasis>', '<lang xml:lang="fr-FR">|</lang>', '<s>|</s>', '<p>|</p>', '<w>|</w>'];

const { piece } = fc.letrec((tie) => ({
  piece: fc.oneof({ depthSize: 'small', withCrossShrink: true }, word, word, punctuation, opening, closing, sub, spelled, empty, tie('wrapped')),
  wrapped: fc.tuple(fc.constantFrom(...wrappers), fc.array(tie('piece'), { maxLength: 5 })).map(([wrapper, children]): Piece => {
    const [open, close] = wrapper.split('|');
    const kids = children as Piece[];
    return { xml: `${open}${kids.map((k) => k.xml).join('')}${close}`, speak: kids.flatMap((k) => k.speak) };
  }),
}));

const documents = fc.array(piece, { minLength: 1, maxLength: 8 }).map((pieces) => {
  const ps = pieces as Piece[];
  return { xml: `<speak>${ps.map((p) => p.xml).join('')}</speak>`, speak: ps.flatMap((p) => p.speak) };
});

/** Sentence ends that <s> and <p> add are the parser's own full stops; compare without spaces and full stops. */
const compact = (text: string) => text.replace(/[\s.]/g, '');
const words = (text: string) => text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);

describe('parseSsml turns say the speakable text', () => {
  it(`holds for ${NUM_RUNS} generated documents`, () => {
    let numAccepted = 0;
    fc.assert(
      fc.property(documents, ({ xml, speak }) => {
        const hasWords = speak.some((t) => /[\p{L}\p{N}]/u.test(t));
        let turns: string[];
        try {
          turns = parseSsml(xml, { knownVoices: ['ryan', 'serena'] }).segments.flatMap((s) => (s.kind === 'turn' ? [s.text] : []));
        } catch (err) {
          // Only a document without a single word may be refused.
          expect(hasWords, `refused ${xml}: ${(err as Error).message}`).toBe(false);
          return;
        }
        numAccepted++;
        expect(compact(turns.join(''))).toBe(compact(speak.join('')));
        expect(words(turns.join(' '))).toEqual(words(speak.join(' ')));
        for (const t of turns) {
          expect(t).toBe(t.trim());
          expect(t, `punctuation-only turn in ${xml}`).toMatch(/[\p{L}\p{N}]/u);
        }
      }),
      { numRuns: NUM_RUNS, seed: 20261205 },
    );
    expect(numAccepted).toBeGreaterThan(NUM_RUNS / 2);
  });
});
