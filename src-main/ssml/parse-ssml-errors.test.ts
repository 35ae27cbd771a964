// Bad input must end in a positioned StudioError (or a warning in lenient mode), never a crash or a hang.
import { describe, expect, it } from 'vitest';
import { StudioError } from '../../src-shared/errors';
import { parseSsml } from './parse-ssml';
import { parseInput } from './parse-input';
import { resolveSsmlOptions } from './ssml-options';

function errorOf(fn: () => unknown): StudioError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(StudioError);
    return err as StudioError;
  }
  throw new Error('expected an error');
}

describe('parseSsml errors', () => {
  it('points at the bad value of an unsupported rate and lists the allowed values', () => {
    const err = errorOf(() => parseSsml('<speak>\n  Hi <prosody volume="+1dB" rate="fast-ish">there</prosody>\n</speak>'));
    expect(err.code).toBe('ssml-invalid');
    expect(err.details).toMatchObject({ line: 2, column: 29, element: 'prosody', attribute: 'rate', value: 'fast-ish' });
    expect(err.details.allowed).toContain('x-fast');
    expect(err.message).toMatch(/^SSML 2:29: <prosody> 'fast-ish' is not a valid rate/);
  });

  it('rejects a DOCTYPE, so entity definitions (billion laughs, XXE) are never read', () => {
    const laughs = '<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>\n<speak>&lol2;</speak>';
    expect(errorOf(() => parseSsml(laughs)).details).toMatchObject({ line: 2, column: 1, element: '!DOCTYPE' });
    const xxe = '<!DOCTYPE speak [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><speak>&xxe;</speak>';
    expect(errorOf(() => parseSsml(xxe)).message).toMatch(/DOCTYPE is not allowed/);
  });

  it('rejects undefined entities with their position', () => {
    const err = errorOf(() => parseSsml('<speak>a &nbsp; b</speak>'));
    expect(err.details).toMatchObject({ line: 1, column: 10, value: '&nbsp;' }); // the '&' of &nbsp;, not where saxes noticed
    expect(err.message).toContain('&#160;');
  });

  it('reports malformed XML with a position', () => {
    const err = errorOf(() => parseSsml('<speak>\n<p>open\n</speak>'));
    expect(err.code).toBe('ssml-invalid');
    expect(err.details.line).toBe(2); // the <p> left open, where it opened (not the </speak> that found it)
    expect(errorOf(() => parseSsml('<speak><prosody rate=fast>x</prosody></speak>')).details.line).toBe(1);
    expect(errorOf(() => parseSsml('<speak>a</speak>trailing')).code).toBe('ssml-invalid');
  });

  it('rejects nested speak, a non-speak root, empty documents and documents with nothing to say', () => {
    expect(errorOf(() => parseSsml('<speak>a<speak>b</speak></speak>')).details).toMatchObject({ column: 9, element: 'speak' });
    expect(errorOf(() => parseSsml('<prosody rate="fast">x</prosody>')).details).toMatchObject({ element: 'prosody', allowed: ['speak'] });
    expect(errorOf(() => parseSsml('')).details).toMatchObject({ line: 1, column: 1 });
    expect(errorOf(() => parseSsml('  \n ')).code).toBe('ssml-invalid');
    expect(errorOf(() => parseSsml('<speak><break time="1s"/></speak>')).message).toMatch(/nothing to speak/);
    expect(errorOf(() => parseInput('   ', 'text')).details).toMatchObject({ line: 1, column: 1 });
  });

  it('rejects a break over 10 s in strict mode and clamps it with a warning in lenient mode', () => {
    expect(errorOf(() => parseSsml('<speak>a<break time="10001ms"/>b</speak>')).details).toMatchObject({ attribute: 'time', value: '10001ms', column: 16 });
    const lenient = parseSsml('<speak>a<break time="25s"/>b</speak>', { strict: false });
    expect(lenient.segments[1]).toEqual({ kind: 'break', durationMs: 10_000 });
    expect(lenient.warnings[0]).toMatchObject({ element: 'break', attribute: 'time' });
  });

  it('errors on unknown elements and attributes in strict mode and drops them with warnings in lenient mode', () => {
    expect(errorOf(() => parseSsml('<speak><foo>x</foo></speak>')).details).toMatchObject({ element: 'foo', value: 'foo' });
    expect(errorOf(() => parseSsml('<speak><break tiem="1s"/>x</speak>')).details).toMatchObject({ element: 'break', attribute: 'tiem', allowed: ['time', 'strength'] });
    const lenient = parseSsml('<speak><foo>x</foo><break tiem="1s"/>y</speak>', { strict: false });
    expect(lenient.segments.map((s) => s.kind)).toEqual(['turn', 'break', 'turn']);
    expect(lenient.warnings.map((w) => `${w.element}.${w.attribute}`)).toEqual(['foo.', 'break.tiem']);
  });

  it('rejects effective prosody outside the supported range, naming the result after nesting', () => {
    const err = errorOf(() => parseSsml('<speak><prosody rate="x-slow"><prosody rate="50%">x</prosody></prosody></speak>'));
    expect(err.details).toMatchObject({ element: 'prosody', attribute: 'rate', value: '50%' });
    expect(err.message).toMatch(/effective rate of 0.3×/);
    expect(errorOf(() => parseSsml('<speak><prosody pitch="+13st">x</prosody></speak>')).details.attribute).toBe('pitch');
  });

  it('rejects unknown voices and languages with the allowed lists', () => {
    expect(errorOf(() => parseSsml('<speak><voice name="Bob">x</voice></speak>', { knownVoices: ['ryan', 'vivian'] })).details).toMatchObject({ attribute: 'name', value: 'Bob', allowed: ['ryan', 'vivian'] });
    expect(errorOf(() => parseSsml('<speak xml:lang="nl-NL">x</speak>')).details).toMatchObject({ element: 'speak', attribute: 'xml:lang', value: 'nl-NL' });
    expect(errorOf(() => parseSsml('<speak xml:lang="de">x</speak>', { knownLanguages: ['english'] })).details.allowed).toEqual(['english']);
  });

  it('rejects say-as text that does not fit the interpretation', () => {
    expect(errorOf(() => parseSsml('<speak><say-as interpret-as="cardinal">twelve</say-as></speak>')).details).toMatchObject({ element: 'say-as', value: 'twelve' });
    expect(errorOf(() => parseSsml('<speak><say-as interpret-as="date" format="qq">1/2</say-as></speak>')).details).toMatchObject({ attribute: 'format' });
    expect(errorOf(() => parseSsml('<speak><say-as interpret-as="time">25:00</say-as></speak>')).code).toBe('ssml-invalid');
    expect(errorOf(() => parseSsml('<speak><say-as interpret-as="cardinal">1<break/></say-as></speak>')).details.element).toBe('break');
  });

  it('rejects remote audio sources but accepts local paths', () => {
    expect(errorOf(() => parseSsml('<speak><audio src="https://x.test/a.wav">fb</audio></speak>')).details).toMatchObject({ attribute: 'src' });
    expect(parseSsml('<speak><audio src="C:\\clips\\a.wav"/><audio src="file:///tmp/b.wav"/></speak>').segments).toHaveLength(2);
    const lenient = parseSsml('<speak><audio src="http://x.test/a.wav">fallback words</audio></speak>', { strict: false });
    expect(lenient.segments).toEqual([{ kind: 'turn', index: 0, dialogueTurnIndex: 0, text: 'fallback words', voice: null, language: null, rate: 1, pitchSemitones: 0, volumeGainDb: 0 }]);
  });

  it('limits size, depth and element count', () => {
    const oneMb = 'a'.repeat(1024 * 1024);
    expect(errorOf(() => parseInput(oneMb, 'text')).code).toBe('input-too-long');
    expect(errorOf(() => parseSsml(`<speak>${oneMb}</speak>`)).details).toMatchObject({ line: 1, column: 1 });
    expect(errorOf(() => parseSsml('<speak>x</speak>', { maxBytes: 10 })).code).toBe('input-too-long');
    const deep = `<speak>${'<s>'.repeat(40)}x${'</s>'.repeat(40)}</speak>`;
    expect(errorOf(() => parseSsml(deep)).message).toMatch(/nested more than 32 deep/);
    const veryDeep = `<speak>${'<p>'.repeat(50_000)}`;
    expect(errorOf(() => parseSsml(veryDeep)).details.line).toBe(1);
    const many = `<speak>${'<mark name="m"/>'.repeat(101)}x</speak>`;
    expect(errorOf(() => parseSsml(many, { maxElements: 100 })).message).toMatch(/more than 100 elements/);
  });

  it('rejects unknown options naming the key path', () => {
    expect(() => resolveSsmlOptions({ maxDepht: 3 } as never)).toThrow(/ssml\.maxDepht/);
    expect(() => resolveSsmlOptions({ maxDepth: -1 })).toThrow(/ssml\.maxDepth/);
    expect(resolveSsmlOptions({})).toMatchObject({ strict: true, maxBytes: 262_144, maxDepth: 32, maxElements: 10_000, dialect: 'auto' });
  });
});
