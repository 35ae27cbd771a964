/**
 * WAV encoding in the renderer for exports: mono RIFF/WAVE as 16-bit PCM (clipped, rounded) or
 * 32-bit IEEE float. Pure; returns bytes the caller wraps in a Blob.
 */

export type WavSampleFormat = 'pcm16' | 'float32';

export function encodeWav(pcm: Float32Array, sampleRateHz: number, format: WavSampleFormat): Uint8Array {
  const bytesPerSample = format === 'pcm16' ? 2 : 4;
  const dataBytes = pcm.length * bytesPerSample;
  const out = new Uint8Array(44 + dataBytes);
  const view = new DataView(out.buffer);
  const ascii = (offset: number, text: string) => {
    for (let i = 0; i < text.length; i++) out[offset + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, format === 'pcm16' ? 1 : 3, true); // 1 = PCM, 3 = IEEE float
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRateHz, true);
  view.setUint32(28, sampleRateHz * bytesPerSample, true); // byte rate
  view.setUint16(32, bytesPerSample, true); // block align
  view.setUint16(34, bytesPerSample * 8, true);
  ascii(36, 'data');
  view.setUint32(40, dataBytes, true);
  for (let i = 0; i < pcm.length; i++) {
    if (format === 'pcm16') {
      const s = Math.max(-1, Math.min(1, pcm[i]));
      view.setInt16(44 + i * 2, Math.round(s < 0 ? s * 0x8000 : s * 0x7fff), true);
    } else {
      view.setFloat32(44 + i * 4, pcm[i], true);
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
