/**
 * Text into HTTP header values that any text survives: Node refuses a header value with a
 * character outside Latin-1 ("Invalid character in header content"), which threw away finished
 * clips whose warnings held CJK or emoji. Everything but visible ASCII (and '%') is percent-encoded
 * as UTF-8, as RFC 8187 does for ext-values, so decodeURIComponent() gives the text back. Pure.
 */

/** Default cap on one encoded header value, in characters (servers commonly allow 8 KB for all headers). */
export const HEADER_VALUE_MAX_LENGTH = 2000;

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** The encoded form of one code point: visible ASCII but '%' as is, anything else %XX per UTF-8 byte. */
function encodeCodePoint(ch: string): string {
  const code = ch.charCodeAt(0);
  if (ch.length === 1 && code >= 0x21 && code <= 0x7e && code !== 0x25) return ch;
  // a lone surrogate has no UTF-8 form (encodeURIComponent would throw): U+FFFD stands in
  if (ch.length === 1 && (isHighSurrogate(code) || isLowSurrogate(code))) return '%EF%BF%BD';
  return encodeURIComponent(ch);
}

/** Encoded code points of `text`, in order (for…of splits by code point and yields lone surrogates alone). */
function encodedPieces(text: string): string[] {
  const pieces: string[] = [];
  for (const ch of text) pieces.push(encodeCodePoint(ch));
  return pieces;
}

/**
 * Percent-encodes `text` for a header value: the result is visible ASCII only, and at most
 * `maxLength` characters long — cut between whole characters, never inside a %XX sequence, so it
 * always decodes. decodeHeaderValue() (or decodeURIComponent) restores the text.
 */
export function encodeHeaderValue(text: string, maxLength = HEADER_VALUE_MAX_LENGTH): string {
  let out = '';
  for (const piece of encodedPieces(text)) {
    if (out.length + piece.length > maxLength) break;
    out += piece;
  }
  return out;
}

export function decodeHeaderValue(value: string): string {
  return decodeURIComponent(value);
}

/**
 * A list of strings (such as a result's warnings) as one header value: a percent-encoded JSON
 * array that always parses after decoding. Whole items are kept while they fit within `maxLength`;
 * the rest are replaced by a last item "… N more not shown". Read with JSON.parse(decodeHeaderValue(v)).
 */
export function encodeHeaderList(items: readonly string[], maxLength = HEADER_VALUE_MAX_LENGTH): string {
  const encodeItem = (item: string) => encodedPieces(JSON.stringify(item)).join('');
  const encoded = items.map(encodeItem);
  // '[', ',' and ']' are visible ASCII: one character each once encoded
  const all = `[${encoded.join(',')}]`;
  if (all.length <= maxLength) return all;
  const moreItem = (numLeft: number) => encodeItem(`… ${numLeft} more not shown`);
  const kept: string[] = [];
  let numChars = 1; // '['
  for (const part of encoded) {
    // room for this item, a comma, the "more" item for the rest, and ']'
    if (numChars + part.length + 1 + moreItem(items.length - kept.length - 1).length + 1 > maxLength) break;
    kept.push(part);
    numChars += part.length + 1;
  }
  kept.push(moreItem(items.length - kept.length));
  const value = `[${kept.join(',')}]`;
  return value.length <= maxLength ? value : '[]';
}
