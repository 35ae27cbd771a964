/**
 * Byte-for-byte comparison of a response with the golden recording; reports the first
 * differing offset so a mismatch can be located. Pure.
 */
import type { ByteMismatch } from './run-record';

export function compareBytes(golden: Uint8Array, actual: Uint8Array): ByteMismatch | null {
  const numCommon = Math.min(golden.length, actual.length);
  for (let i = 0; i < numCommon; i++) {
    if (golden[i] !== actual[i]) {
      return { byteOffset: i, expectedByte: golden[i], actualByte: actual[i], numGoldenBytes: golden.length, numBytes: actual.length };
    }
  }
  if (golden.length === actual.length) return null;
  return {
    byteOffset: numCommon,
    expectedByte: numCommon < golden.length ? golden[numCommon] : null,
    actualByte: numCommon < actual.length ? actual[numCommon] : null,
    numGoldenBytes: golden.length,
    numBytes: actual.length,
  };
}
