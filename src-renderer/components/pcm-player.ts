/**
 * Plays one PCM buffer once through Web Audio (A/B of takes) and stops the previous one, so only
 * one preview sounds at a time. The caller may hear when its buffer ends (played out or stopped,
 * by stopPcm or by the next playPcm) and ask how far it has played. Store-agnostic; a no-op without
 * an AudioContext.
 */

let ctx: AudioContext | null = null;
let current: AudioBufferSourceNode | null = null;

export interface PcmPlayOptions {
  /** Start this far into the buffer (A/B: the other take from the same moment). */
  offsetS?: number;
  /** Called once when this buffer stops sounding, for whatever reason. */
  onEnded?(): void;
}

export interface PcmPlayback {
  /** Where in the buffer playback is now, in seconds. */
  positionS(): number;
}

/** Plays `pcm`; null when nothing can sound (no Web Audio, empty buffer), and then onEnded is not called. */
export function playPcm(pcm: Float32Array, sampleRateHz: number, options: PcmPlayOptions = {}): PcmPlayback | null {
  stopPcm();
  if (typeof window === 'undefined' || !window.AudioContext || pcm.length === 0) return null;
  ctx ??= new window.AudioContext();
  const audio = ctx;
  // Made before a user gesture (or suspended by the browser): a click that plays resumes it.
  if (audio.state === 'suspended') void audio.resume();
  const buffer = audio.createBuffer(1, pcm.length, sampleRateHz);
  buffer.copyToChannel(new Float32Array(pcm), 0);
  const source = audio.createBufferSource();
  source.buffer = buffer;
  source.connect(audio.destination);
  const offsetS = Math.max(0, Math.min(buffer.duration, options.offsetS ?? 0));
  source.onended = () => {
    if (current === source) current = null;
    options.onEnded?.();
  };
  source.start(0, offsetS);
  current = source;
  const startedAtS = audio.currentTime;
  return { positionS: () => Math.min(buffer.duration, offsetS + audio.currentTime - startedAtS) };
}

export function stopPcm(): void {
  try {
    current?.stop();
  } catch {
    // already stopped
  }
  current = null;
}
