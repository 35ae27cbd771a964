/**
 * Reads a WAV (RIFF/WAVE, PCM or float) header to get the audio duration of a response.
 * Streaming WAVs carry a placeholder data size (0 or 0xFFFFFFFF); then the bytes present count.
 * Pure; returns null for anything that is not a WAV.
 */

export function wavDurationMs(bytes: Uint8Array): number | null {
  if (bytes.length < 12) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (offset: number) => String.fromCharCode(bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3]);
  if (tag(0) !== 'RIFF' || tag(8) !== 'WAVE') return null;
  let offset = 12;
  let byteRate = 0;
  while (offset + 8 <= bytes.length) {
    const id = tag(offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ' && body + 16 <= bytes.length) {
      byteRate = view.getUint32(body + 8, true); // sampleRateHz × numChannels × bytesPerSample
    } else if (id === 'data') {
      if (byteRate === 0) return null;
      const available = bytes.length - body;
      const numDataBytes = size === 0 || size === 0xffffffff || size > available ? available : size;
      return (numDataBytes * 1000) / byteRate;
    }
    offset = body + size + (size % 2); // chunks are word-aligned
  }
  return null;
}
