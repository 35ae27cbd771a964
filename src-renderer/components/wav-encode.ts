/**
 * WAV encoding in the renderer for exports: mono RIFF/WAVE as 16-bit PCM (clipped, rounded) or
 * 32-bit IEEE float (fmt with cbSize and a fact chunk). Pure; returns bytes the caller wraps in a Blob.
 */

export type WavSampleFormat = 'pcm16' | 'float32';

export function encodeWav(pcm: Float32Array, sampleRateHz: number, format: WavSampleFormat): Uint8Array {
  const isFloat = format === 'float32';
  const bytesPerSample = isFloat ? 4 : 2;
  const dataBytes = pcm.length * bytesPerSample;
  // IEEE float (format 3) is not PCM: its fmt chunk carries cbSize (18 bytes) and a fact chunk
  // with the sample count follows, as the RIFF spec asks and sox expects.
  const fmtBytes = isFloat ? 18 : 16;
  const factBytes = isFloat ? 12 : 0;
  const dataOffset = 12 + 8 + fmtBytes + factBytes + 8;
  const out = new Uint8Array(dataOffset + dataBytes);
  const view = new DataView(out.buffer);
  const ascii = (offset: number, text: string) => {
    for (let i = 0; i < text.length; i++) out[offset + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, dataOffset - 8 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, fmtBytes, true);
  view.setUint16(20, isFloat ? 3 : 1, true); // 1 = PCM, 3 = IEEE float
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRateHz, true);
  view.setUint32(28, sampleRateHz * bytesPerSample, true); // byte rate
  view.setUint16(32, bytesPerSample, true); // block align
  view.setUint16(34, bytesPerSample * 8, true);
  if (isFloat) {
    view.setUint16(36, 0, true); // cbSize: no extension
    ascii(38, 'fact');
    view.setUint32(42, 4, true);
    view.setUint32(46, pcm.length, true); // samples per channel
  }
  ascii(dataOffset - 8, 'data');
  view.setUint32(dataOffset - 4, dataBytes, true);
  for (let i = 0; i < pcm.length; i++) {
    if (isFloat) {
      view.setFloat32(dataOffset + i * 4, pcm[i], true);
    } else {
      const s = Math.max(-1, Math.min(1, pcm[i]));
      view.setInt16(dataOffset + i * 2, Math.round(s < 0 ? s * 0x8000 : s * 0x7fff), true);
    }
  }
  return out;
}

/** Offers bytes as a file download (an anchor with a blob URL). */
export function downloadBytes(bytes: Uint8Array | string, fileName: string, mimeType: string): void {
  const blob = new Blob([bytes as BlobPart], { type: mimeType });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
