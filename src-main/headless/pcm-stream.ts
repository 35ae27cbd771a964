/**
 * Streaming audio framing for HTTP: a WAV header with an open-ended length, for responses whose
 * size is unknown when the first chunk goes out.
 */

/** RIFF/WAVE header for mono 16-bit PCM whose data length is not known yet (0xFFFFFFFF, as streaming servers do). */
export function encodeWavStreamHeader(sampleRateHz: number): Uint8Array {
  const header = new Uint8Array(44);
  const view = new DataView(header.buffer);
  const ascii = (offset: number, text: string) => [...text].forEach((c, i) => view.setUint8(offset + i, c.charCodeAt(0)));
  ascii(0, 'RIFF');
  view.setUint32(4, 0xffffffff, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true); // fmt chunk size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRateHz, true);
  view.setUint32(28, sampleRateHz * 2, true); // byte rate = rate · channels · 2
  view.setUint16(32, 2, true); // block align
  view.setUint16(34, 16, true); // bits per sample
  ascii(36, 'data');
  view.setUint32(40, 0xffffffff, true);
  return header;
}
