// Property: for any generated document the parser returns segments or throws a positioned
// StudioError; it never throws anything else. Documents mix valid SSML, bad values, unknown
// markup, random characters, truncation and splices, so the error paths are exercised too.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StudioError } from '../../src-shared/errors';
import { parseSsml } from './parse-ssml';

const NUM_RUNS = 10_000;

const attributeValues = fc.constantFrom('fast', 'x-slow', '120%', '+20%', '-30%', '0%', '999%', '1.5', 'fast-ish', '+2st', '-40st', '+10Hz', '200Hz', '+3dB', 'loud', '50', '250ms', '11s', 'x-strong', '', ' ', 'en-US', 'zh', 'xx', 'ryan', 'cardinal', 'date', 'ymd', 'a.wav', 'http://x/a.wav', '&amp;', '"', '<', 'female', 'fr-FR', '1s', 'question.end+2s', 'en-US-AvaNeural', 'x-weak', '+10', '50%');
const attributeNames = fc.constantFrom('rate', 'pitch', 'volume', 'time', 'strength', 'name', 'xml:lang', 'level', 'interpret-as', 'format', 'alias', 'ph', 'src', 'description', 'bogus', 'mark', 'gender', 'language', 'begin', 'speaker');
const elementNames = fc.constantFrom('p', 's', 'prosody', 'voice', 'lang', 'emphasis', 'say-as', 'sub', 'phoneme', 'break', 'mark', 'audio', 'meta', 'desc', 'w', 'speak', 'foo', 'mstts:express-as', 'bookmark', 'amazon:effect', 'par', 'seq', 'media', 'metadata', 'lexicon', 'mstts:turn');
const texts = fc.oneof(fc.constantFrom('hello', '123', '3rd', '2024-01-02', '12:30', '+1 555 0100', '你好', ' ', '&lt;', '&bogus;', '<', ']]>', '&#xD800;'), fc.string({ maxLength: 12 }));

const attribute = fc.tuple(attributeNames, attributeValues).map(([n, v]) => ` ${n}="${v.replace(/"/g, '&quot;')}"`);
const { node } = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, texts, tie('element')),
  element: fc.tuple(elementNames, fc.array(attribute, { maxLength: 3 }), fc.array(tie('node'), { maxLength: 4 }), fc.boolean())
    .map(([name, attrs, children, selfClose]) => (selfClose && children.length === 0 ? `<${name}${attrs.join('')}/>` : `<${name}${attrs.join('')}>${(children as string[]).join('')}</${name}>`)),
}));
const wellFormedish = fc.array(node, { maxLength: 6 }).map((children) => `<speak>${(children as string[]).join('')}</speak>`);
const damaged = fc.tuple(wellFormedish, fc.nat(), fc.nat(), fc.string({ maxLength: 8 })).map(([doc, a, b, junk]) => {
  const i = a % (doc.length + 1);
  const j = Math.min(doc.length, i + (b % 10));
  return doc.slice(0, i) + junk + doc.slice(j);
});
const documents = fc.oneof(wellFormedish, damaged, fc.string({ maxLength: 40 }), wellFormedish.map((d) => d.slice(0, Math.floor(d.length / 2))));

describe('parseSsml fuzzing', () => {
  it(`returns segments or a positioned StudioError for ${NUM_RUNS} generated documents`, () => {
    let numOk = 0;
    let numErrors = 0;
    fc.assert(
      fc.property(documents, fc.boolean(), fc.constantFrom('auto', 'ssml11', 'azure', 'google', 'polly' as const), (doc, strict, dialect) => {
        try {
          const result = parseSsml(doc, { strict, dialect, voiceTraits: [{ name: 'ryan', gender: 'male', nativeLanguage: 'english' }, { name: 'serena', gender: 'female', nativeLanguage: 'chinese' }] });
          expect(Array.isArray(result.segments)).toBe(true);
          numOk++;
        } catch (err) {
          if (!(err instanceof StudioError)) throw new Error(`non-StudioError for ${JSON.stringify(doc)}: ${String(err)}`);
          expect(['ssml-invalid', 'input-too-long']).toContain(err.code);
          expect(Number.isInteger(err.details.line) && (err.details.line as number) >= 1).toBe(true);
          expect(Number.isInteger(err.details.column) && (err.details.column as number) >= 1).toBe(true);
          numErrors++;
        }
      }),
      { numRuns: NUM_RUNS, seed: 20261202 },
    );
    // Both outcomes must be common, or the generator is not testing what it claims.
    expect(numOk).toBeGreaterThan(NUM_RUNS / 50);
    expect(numErrors).toBeGreaterThan(NUM_RUNS / 50);
  });
});
