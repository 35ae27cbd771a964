/**
 * The lexicon editor's preview: one word with its pronunciation (a small <speak> document) spoken in
 * the current voice, language and sampling through the request Generate sends; not streamed, not
 * saved. Speak and the Timeline's editor both offer it.
 */
import { CHANNELS } from '../../src-shared/ipc-contract';
import { toStudioError } from '../../src-shared/errors';
import { call } from '../ipc/client';
import { useStudioStore } from '../store/store';
import { playPcm } from '../components/pcm-player';
import { buildRequest, newId } from './generate-actions';

/** What previewingVoice holds while a pronunciation preview is made (no speaker has this name). */
export const PRONUNCIATION_PREVIEW = '\u0000pronunciation';

/** Plays `ssml`; a failure is handed to `onError` in words. One preview at a time. */
export async function previewPronunciation(ssml: string, onError: (message: string) => void): Promise<void> {
  const s = useStudioStore.getState();
  if (s.previewingVoice !== null) return;
  s.setPreviewingVoice(PRONUNCIATION_PREVIEW);
  try {
    const request = buildRequest(`preview-${newId()}`, s.voiceSettings.seed, { input: ssml, inputFormat: 'ssml' });
    const result = await call(CHANNELS.synthesize, { ...request, stream: false });
    playPcm(result.pcm, result.sampleRateHz);
  } catch (err) {
    const e = toStudioError(err);
    onError(`pronunciation preview failed: ${e.message} (${e.code})`);
  } finally {
    useStudioStore.getState().setPreviewingVoice(null);
  }
}
