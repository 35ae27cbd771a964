/**
 * Loads what the Voice and Speak panels choose from: the loaded model's facts, its speakers and the
 * model list (installed, embedded test model, known hub models); switches the model (Voice, Models);
 * loads the saved voices (every screen names them: clips record their ids). The app session loads
 * both at start and after the host comes back.
 */
import { CHANNELS } from '../../src-shared/ipc-contract';
import { toStudioError } from '../../src-shared/errors';
import { call } from '../ipc/client';
import { useStudioStore } from '../store/store';

export async function loadVoiceData(): Promise<void> {
  try {
    const [modelInfo, voices, models] = await Promise.all([
      call(CHANNELS.modelInfo, {}),
      call(CHANNELS.listVoices, {}),
      call(CHANNELS.listModels, {}).catch(() => []),
    ]);
    useStudioStore.getState().setVoiceData({ modelInfo, voices, models });
  } catch (err) {
    const e = toStudioError(err);
    useStudioStore.getState().setVoiceLoadError(`${e.message} (${e.code})`);
  }
}

/** The saved voices into the store; a failure is the voice library's error. */
export async function loadSavedVoices(): Promise<void> {
  try {
    const voices = await call(CHANNELS.listSavedVoices, {});
    useStudioStore.getState().setSavedVoices(Array.isArray(voices) ? voices : []);
  } catch (err) {
    const e = toStudioError(err);
    useStudioStore.getState().setVoiceLibraryError(`${e.message} (${e.code})`);
  }
}

/** Restarts the engine on another model, then reloads its facts and speakers. */
export async function switchModel(modelId: string): Promise<void> {
  const store = useStudioStore.getState();
  store.updateVoiceSettings({ modelId });
  store.setModelSwitching(true);
  try {
    await call(CHANNELS.loadModel, { modelId });
    await loadVoiceData();
  } catch (err) {
    const e = toStudioError(err);
    useStudioStore.getState().setVoiceLoadError(`could not load ${modelId}: ${e.message} (${e.code})`);
  } finally {
    useStudioStore.getState().setModelSwitching(false);
  }
}
