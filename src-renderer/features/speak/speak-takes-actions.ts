/**
 * Speak's take history, actions: load a take's audio from the Library (after a reload), play one
 * take at a time (from a point, or as A or B of the compare, B taking over from where A was), stop,
 * use a take's text and settings again, download it as WAV. The store says which take is sounding;
 * the player says how far it has played.
 */
import { CHANNELS } from '../../../src-shared/ipc-contract';
import { toStudioError } from '../../../src-shared/errors';
import { call } from '../../ipc/client';
import { useStudioStore } from '../../store/store';
import { playPcm, stopPcm, type PcmPlayback } from '../../components/pcm-player';
import { downloadBytes, encodeWav } from '../../components/wav-encode';
import { voiceDisplayName } from '../../components/voice-names';
import { speakTakeFileName } from './speak-takes';
import type { SpeakSounding, SpeakTakeAudio } from './speak.slice';

let playback: PcmPlayback | null = null;
/** Bumped by every play and stop, so a buffer that ends late does not clear a newer one's state. */
let playToken = 0;
const loading = new Map<string, Promise<SpeakTakeAudio | null>>();

/** The take's audio: from memory, else read once from the Library (null when the Library no longer has it). */
export async function loadSpeakTakeAudio(takeId: string): Promise<SpeakTakeAudio | null> {
  const known = useStudioStore.getState().speakTakeAudio[takeId];
  if (known !== undefined) return known;
  let pending = loading.get(takeId);
  if (!pending) {
    pending = call(CHANNELS.readClipAudio, { id: takeId }).then(
      (audio): SpeakTakeAudio | null => audio,
      (err: unknown) => {
        if (toStudioError(err).code === 'not-found') return null;
        throw err;
      },
    );
    loading.set(takeId, pending);
  }
  try {
    const audio = await pending;
    useStudioStore.getState().setSpeakTakeAudio(takeId, audio);
    return audio;
  } finally {
    loading.delete(takeId);
  }
}

/** Plays one take (stopping whatever sounds); `side` marks it as A or B of the compare. */
export async function playSpeakTake(takeId: string, options: { side?: SpeakSounding['side']; offsetS?: number } = {}): Promise<void> {
  const token = ++playToken;
  let audio: SpeakTakeAudio | null;
  try {
    audio = await loadSpeakTakeAudio(takeId);
  } catch (err) {
    useStudioStore.getState().setSpeakError(`could not read the take's audio: ${toStudioError(err).message}`);
    return;
  }
  if (token !== playToken) return; // another play or a stop came first
  const s = useStudioStore.getState();
  if (!audio) {
    s.setSpeakError('This take is no longer in the Library; its audio is gone.');
    return;
  }
  s.setSpeakSounding({ takeId, side: options.side ?? null });
  playback = playPcm(audio.pcm, audio.sampleRateHz, {
    offsetS: options.offsetS,
    onEnded: () => {
      if (token !== playToken) return;
      playback = null;
      useStudioStore.getState().setSpeakSounding(null);
    },
  });
  if (!playback) useStudioStore.getState().setSpeakSounding(null);
}

/** A/B: plays that side of the compare; while the other side sounds, from the same moment. */
export function playCompareSide(side: 'A' | 'B'): Promise<void> {
  const s = useStudioStore.getState();
  const compare = s.speakCompare;
  if (!compare) return Promise.resolve();
  const takeId = side === 'A' ? compare.takeIdA : compare.takeIdB;
  const other = side === 'A' ? compare.takeIdB : compare.takeIdA;
  const offsetS = s.speakSounding?.takeId === other ? (playback?.positionS() ?? 0) : 0;
  return playSpeakTake(takeId, { side, offsetS });
}

export function stopSpeakTake(): void {
  playToken++;
  playback = null;
  stopPcm();
  useStudioStore.getState().setSpeakSounding(null);
}

/** Seconds into the sounding take, or null when none sounds. */
export function soundingPositionS(): number | null {
  return playback?.positionS() ?? null;
}

/** Puts a take's text, voice, language, seed and sampling back into the form; the seed is kept for the next Generate. */
export function reuseSpeakTake(takeId: string): void {
  const s = useStudioStore.getState();
  const take = s.speakTakes.find((t) => t.takeId === takeId);
  if (!take) return;
  const { seed, voice, language, ...params } = take.used;
  s.setSpeakText(take.input);
  s.setSpeakFormat(take.inputFormat);
  s.updateVoiceSettings({ voice, language, seed, params, ...(s.modelInfo?.kind === 'voice_design' ? { voiceDescription: take.instruct } : { instruct: take.instruct }) });
  s.setSeedMode('keep');
}

export async function downloadSpeakTake(takeId: string): Promise<void> {
  const s = useStudioStore.getState();
  const take = s.speakTakes.find((t) => t.takeId === takeId);
  if (!take) return;
  try {
    const audio = await loadSpeakTakeAudio(takeId);
    if (!audio) {
      s.setSpeakError('This take is no longer in the Library; its audio is gone.');
      return;
    }
    downloadBytes(encodeWav(audio.pcm, audio.sampleRateHz, 'pcm16'), speakTakeFileName(take, voiceDisplayName(take.used.voice, s.savedVoices)), 'audio/wav');
  } catch (err) {
    s.setSpeakError(`could not read the take's audio: ${toStudioError(err).message}`);
  }
}
