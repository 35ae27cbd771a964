/**
 * Plays one PCM buffer once through Web Audio (A/B of takes) and stops the previous one, so only
 * one preview sounds at a time. Store-agnostic; a no-op without an AudioContext.
 */

let ctx: AudioContext | null = null;
let current: AudioBufferSourceNode | null = null;

export function playPcm(pcm: Float32Array, sampleRateHz: number): void {
  stopPcm();
  if (typeof window === 'undefined' || !window.AudioContext || pcm.length === 0) return;
  ctx ??= new window.AudioContext();
  const buffer = ctx.createBuffer(1, pcm.length, sampleRateHz);
  buffer.copyToChannel(new Float32Array(pcm), 0);
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  source.connect(ctx.destination);
  source.start();
  current = source;
}

export function stopPcm(): void {
  try {
    current?.stop();
  } catch {
    // already stopped
  }
  current = null;
}
