/**
 * Recording a reference clip from the microphone, the parts that do not draw: whether this page
 * may record at all (and, where not, what to tell the user), what a refused or missing microphone
 * means in words, and the finished recording as a 16-bit mono WAV file (the browser records Opus in
 * WebM or Ogg, which the clone upload need not read). The browser objects are passed in.
 */
import { encodeWav } from '../../components/wav-encode';

/** A recording stops by itself after this long; 5–15 s of one person speaking is what cloning wants. */
export const MAX_RECORDING_MS = 20_000;

export interface RecordingEnvironment {
  isSecureContext: boolean;
  hasGetUserMedia: boolean;
  hasMediaRecorder: boolean;
}

/** The page's environment as recordingUnavailableReason reads it. */
export function recordingEnvironment(win: Window | undefined = typeof window === 'undefined' ? undefined : window): RecordingEnvironment {
  return {
    isSecureContext: win?.isSecureContext === true,
    hasGetUserMedia: typeof win?.navigator?.mediaDevices?.getUserMedia === 'function',
    hasMediaRecorder: typeof (win as (Window & { MediaRecorder?: unknown }) | undefined)?.MediaRecorder === 'function',
  };
}

/** Why this page cannot record from the microphone, as a sentence with the way out; null when it can. */
export function recordingUnavailableReason(env: RecordingEnvironment): string | null {
  if (!env.isSecureContext) return 'This browser allows the microphone only on a secure page (https, localhost or the desktop app); open the studio there, or pick a file.';
  if (!env.hasGetUserMedia || !env.hasMediaRecorder) return 'This browser cannot record audio here (no MediaRecorder or microphone access); pick a file instead.';
  return null;
}

/** What a failed getUserMedia / MediaRecorder means to the user, and what to do. */
export function microphoneErrorMessage(err: unknown): string {
  const name = (err as { name?: string } | null)?.name;
  switch (name) {
    case 'NotAllowedError':
    case 'SecurityError':
      return 'Microphone access was refused; allow it for this page in the browser’s site settings, or pick a file.';
    case 'NotFoundError':
    case 'OverconstrainedError':
      return 'No microphone was found; plug one in, or pick a file.';
    case 'NotReadableError':
    case 'AbortError':
      return 'The microphone is busy or failed to start (another app may hold it); try again, or pick a file.';
    default:
      return `Recording failed: ${err instanceof Error ? err.message : String(err)}; pick a file instead.`;
  }
}

/** The channels of a decoded recording mixed to one. */
export function mixToMono(channels: readonly Float32Array[]): Float32Array {
  if (channels.length === 1) return channels[0];
  const mono = new Float32Array(channels[0]?.length ?? 0);
  for (const ch of channels) for (let i = 0; i < mono.length; i++) mono[i] += ch[i] / channels.length;
  return mono;
}

/** A blob's bytes (Blob.arrayBuffer, else a FileReader where a DOM stand-in lacks it). */
function blobBytes(blob: Blob): Promise<ArrayBuffer> {
  if (typeof blob.arrayBuffer === 'function') return blob.arrayBuffer();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error('the recording could not be read'));
    reader.readAsArrayBuffer(blob);
  });
}

/** A finished recording as a WAV file named after when it was made ("recording-12-03-04.wav"). */
export async function recordingToWav(recorded: Blob, decode: (bytes: ArrayBuffer) => Promise<AudioBuffer>, now = new Date()): Promise<File> {
  const audio = await decode(await blobBytes(recorded));
  const channels = Array.from({ length: audio.numberOfChannels }, (_, c) => audio.getChannelData(c));
  const wav = encodeWav(mixToMono(channels), audio.sampleRate, 'pcm16');
  const stamp = now.toTimeString().slice(0, 8).replace(/:/g, '-');
  return new File([wav as BlobPart], `recording-${stamp}.wav`, { type: 'audio/wav' });
}
