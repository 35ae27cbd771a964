/**
 * Speak: one generation of the Speak screen's text with the voice settings (streamed as it is
 * made), filed in the Library under the voice the engine used and first in Speak's take history;
 * and speaker previews — a short
 * line in that speaker's voice, made once per model/speaker/language and replayed from memory.
 */
import { CHANNELS } from '../../../src-shared/ipc-contract';
import { toStudioError } from '../../../src-shared/errors';
import { call } from '../../ipc/client';
import { useStudioStore } from '../../store/store';
import { StreamPlayer } from '../../components/stream-player';
import { playPcm } from '../../components/pcm-player';
import { buildRequest, clipFrom, followRequest, newId, randomSeed } from '../../shared-state/generate-actions';
import type { GenerationJob } from '../../shared-state/generation-job';
import { stopSpeakTake } from './speak-takes-actions';

export async function speak(options: { stream?: boolean } = {}): Promise<void> {
  const store = useStudioStore.getState();
  if (!store.speakText.trim()) {
    store.setSpeakError('Type some text first.');
    return;
  }
  if (store.seedMode === 'random') store.updateVoiceSettings({ seed: randomSeed() });
  const seed = useStudioStore.getState().voiceSettings.seed;
  const job: GenerationJob = { jobId: newId(), requestId: `speak-${newId()}`, kind: 'speak', turnIndex: null, seed, state: 'waiting', progress: {}, firstAudioAtMs: null, error: null, createdAtMs: Date.now() };
  store.upsertJob(job);
  store.setSpeakError(null);
  const request = buildRequest(job.requestId, seed, { input: store.speakText, inputFormat: store.speakFormat });
  // The new take streams out; a take of the history playing would sound over it.
  if (options.stream !== false) stopSpeakTake();
  const player = options.stream === false ? null : new StreamPlayer(request.loudness ?? null);
  const unfollow = followRequest(job, player);
  try {
    const result = await call(CHANNELS.synthesize, request);
    player?.replaceWithFinal(result.pcm, result.sampleRateHz);
    const clip = await call(CHANNELS.saveClip, { clip: clipFrom(request, result), fromRequestId: request.requestId });
    const s = useStudioStore.getState();
    s.addClip(clip, { sampleRateHz: result.sampleRateHz, pcm: result.pcm });
    s.setSpeakResult({
      clipId: clip.id,
      requestId: request.requestId,
      sampleRateHz: result.sampleRateHz,
      pcm: result.pcm,
      used: result.effectiveParams,
      modelId: s.modelInfo?.id ?? null,
      durationMs: result.timings.audioDurationMs,
      rtf: result.timings.rtf,
      latencyFirstAudioMs: result.timings.latencyFirstAudioMs,
      warnings: result.warnings,
    });
    s.addSpeakTake(
      {
        takeId: clip.id,
        createdAtMs: clip.createdAtMs,
        input: request.input,
        inputFormat: request.inputFormat ?? 'text',
        instruct: request.instruct ?? '',
        used: result.effectiveParams,
        modelId: s.modelInfo?.id ?? null,
        sampleRateHz: result.sampleRateHz,
        durationMs: result.timings.audioDurationMs,
        rtf: result.timings.rtf,
      },
      { sampleRateHz: result.sampleRateHz, pcm: result.pcm },
    );
    s.patchJob(job.jobId, { state: 'done' });
  } catch (err) {
    const e = toStudioError(err);
    const s = useStudioStore.getState();
    s.patchJob(job.jobId, e.code === 'cancelled' ? { state: 'cancelled' } : { state: 'failed', error: { code: e.code, message: e.message } });
    if (e.code !== 'cancelled') s.setSpeakError(`${e.message} (${e.code})`);
  } finally {
    unfollow();
    if (player) setTimeout(() => player.dispose(), Math.max(30, player.remainingS() + 1) * 1000);
  }
}

/** Short preview lines per language; others use the English one. */
const PREVIEW_LINES: Record<string, string> = {
  english: 'Hi, this is how I sound. Shall we get started?',
  chinese: '你好，这是我的声音。我们开始吧？',
  japanese: 'こんにちは、これが私の声です。',
  korean: '안녕하세요, 제 목소리는 이렇습니다.',
};

const previewCache = new Map<string, { pcm: Float32Array; sampleRateHz: number }>();

export function previewLine(language: string, nativeLanguage: string | undefined): string {
  const lang = language === 'auto' ? (nativeLanguage ?? 'english').toLowerCase() : language;
  return PREVIEW_LINES[lang] ?? PREVIEW_LINES.english;
}

/** Plays a short line in `voice`; the first call per model/voice/language synthesises it (seed 1, not saved). */
export async function previewVoice(voice: string): Promise<void> {
  const s = useStudioStore.getState();
  const native = s.voices.find((v) => v.name === voice)?.nativeLanguage;
  const language = s.voiceSettings.language;
  const { targetLufs, truePeakCeilingDbtp } = s.outputLoudness;
  const key = `${s.modelInfo?.modelHash ?? s.modelInfo?.id ?? ''}:${voice}:${language}:${targetLufs}:${truePeakCeilingDbtp}`;
  s.setPreviewingVoice(voice);
  try {
    let audio = previewCache.get(key);
    if (!audio) {
      const result = await call(CHANNELS.synthesize, { requestId: `preview-${newId()}`, input: previewLine(language, native), inputFormat: 'text', voice, language, seed: 1, priority: 'interactive', stream: false, loudness: { targetLufs, truePeakCeilingDbtp } });
      audio = { pcm: result.pcm, sampleRateHz: result.sampleRateHz };
      previewCache.set(key, audio);
    }
    playPcm(audio.pcm, audio.sampleRateHz);
  } catch (err) {
    const e = toStudioError(err);
    useStudioStore.getState().setSpeakError(`preview of ${voice} failed: ${e.message} (${e.code})`);
  } finally {
    useStudioStore.getState().setPreviewingVoice(null);
  }
}

/** For tests: forget the previews heard so far. */
export function clearPreviewCache(): void {
  previewCache.clear();
}
