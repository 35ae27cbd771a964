/**
 * WAV exports in the renderer: the studio's one WAV writer (src-main/audio/wav-encode.ts, pure), so
 * an export holds the same bytes as the CLI and the HTTP API write; and the download helper.
 */

export { encodeWav, type WavFormat as WavSampleFormat } from '../../src-main/audio/wav-encode';

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
