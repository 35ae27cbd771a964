/**
 * Header values that any text survives: CJK, emoji, controls, '%' and lone surrogates come back
 * byte for byte after decoding, Node's own header validator accepts every encoded value (it throws
 * on the raw text), and cuts never split a character or break the JSON of a list.
 */
import { describe, expect, it } from 'vitest';
// eslint-disable-next-line no-restricted-imports -- test only: Node's header validator is the oracle
import { validateHeaderValue } from 'node:http';
import { HEADER_VALUE_MAX_LENGTH, decodeHeaderValue, encodeHeaderList, encodeHeaderValue } from './header-value';

const VISIBLE_ASCII = /^[\x21-\x7e]*$/;
const NASTY = ['SSML 1:12: 语音 "你好" ignored', 'emoji 🎙️ and 👩🏽‍💻', 'naïve café — 100% sure', 'tab\tnewline\r\nnul\0', 'lone \ud800 surrogate', '%E4%BD%A0 looks encoded'];

describe('encodeHeaderValue', () => {
  it('makes text that Node refuses in a header into a value it accepts, and decodes back to the text', () => {
    expect(() => validateHeaderValue('x-studio-warnings', NASTY[0])).toThrowError(/Invalid character/);
    for (const text of NASTY) {
      const value = encodeHeaderValue(text);
      expect(value).toMatch(VISIBLE_ASCII);
      expect(() => validateHeaderValue('x-studio-warnings', value)).not.toThrow();
      expect(decodeHeaderValue(value)).toBe(text.replace('\ud800', '\ufffd'));
    }
  });

  it('keeps visible ASCII readable and encodes only what it must', () => {
    expect(encodeHeaderValue('["a:b", 50%]')).toBe('["a:b",%2050%25]');
    expect(encodeHeaderValue('你')).toBe('%E4%BD%A0');
  });

  it('cuts at a whole character within maxLength, so the cut value still decodes', () => {
    const text = '你好'.repeat(1000); // 9 encoded characters per CJK character
    const value = encodeHeaderValue(text, 100);
    expect(value.length).toBe(99);
    expect(decodeHeaderValue(value)).toBe('你好'.repeat(5) + '你');
    const emoji = encodeHeaderValue('😀'.repeat(10), 20); // 12 encoded characters each
    expect(decodeHeaderValue(emoji)).toBe('😀');
    expect(encodeHeaderValue('x'.repeat(5000)).length).toBe(HEADER_VALUE_MAX_LENGTH);
  });
});

describe('encodeHeaderList', () => {
  it('encodes a list as a JSON array that parses after decoding', () => {
    const value = encodeHeaderList(NASTY);
    expect(value).toMatch(VISIBLE_ASCII);
    // JSON.stringify escapes the lone surrogate as \ud800, so even it comes back as it was
    expect(JSON.parse(decodeHeaderValue(value))).toEqual(NASTY);
  });

  it('keeps whole items within maxLength and says how many were left out', () => {
    const warnings = Array.from({ length: 200 }, (_, i) => `警告 ${i}: <audio src="clip-${i}.wav"> was not inserted`);
    const value = encodeHeaderList(warnings, 1000);
    expect(value.length).toBeLessThanOrEqual(1000);
    const items = JSON.parse(decodeHeaderValue(value)) as string[];
    expect(items.length).toBeGreaterThan(1);
    expect(items.slice(0, -1)).toEqual(warnings.slice(0, items.length - 1));
    expect(items.at(-1)).toBe(`… ${warnings.length - (items.length - 1)} more not shown`);
  });

  it('replaces a single item too long for the header by the count', () => {
    const value = encodeHeaderList(['x'.repeat(5000)], 200);
    expect(JSON.parse(decodeHeaderValue(value))).toEqual(['… 1 more not shown']);
    expect(encodeHeaderList([])).toBe('[]');
  });
});
