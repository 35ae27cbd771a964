/**
 * Loads what the Voice panel chooses from: the loaded model's facts, its speakers and the model
 * list (installed, embedded test model, known hub models).
 */
import { CHANNELS } from '../../../src-shared/ipc-contract';
import { toStudioError } from '../../../src-shared/errors';
import { call } from '../../ipc/client';
import { useStudioStore } from '../../store/store';

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
