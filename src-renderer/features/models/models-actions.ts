/**
 * What the Models page does: refresh the list and the online/offline state, plan a pull (sizes
 * and free space shown for confirmation), pull or import after confirmation, build, cancel,
 * remove, verify, and make an installed model the active one.
 */
import { CHANNELS } from '../../../src-shared/ipc-contract';
import { toStudioError } from '../../../src-shared/errors';
import { call } from '../../ipc/client';
import { useStudioStore } from '../../store/store';
import { switchModel } from '../../shared-state/voice-actions';

function fail(err: unknown): void {
  const e = toStudioError(err);
  useStudioStore.getState().setModelsError(e.code === 'cancelled' ? null : e.message);
}

export async function refreshModels(): Promise<void> {
  try {
    const [models, state] = await Promise.all([call(CHANNELS.listModels, {}), call(CHANNELS.modelsState, {})]);
    useStudioStore.getState().setModels(models);
    useStudioStore.getState().setModelsState(state);
  } catch (err) {
    fail(err);
  }
}

/** Step one of a pull or import: ask what it would take; the page shows the plan for confirmation. */
export async function planPull(target: string): Promise<void> {
  const store = useStudioStore.getState();
  store.setModelsError(null);
  try {
    store.setPendingPull(await call(CHANNELS.planPull, { modelId: target.trim() }));
  } catch (err) {
    store.setPendingPull(null);
    fail(err);
  }
}

/** Step two: the confirmed pull (download or import, then build unless `build` is false). */
export async function confirmPull(build = true): Promise<void> {
  const store = useStudioStore.getState();
  const plan = store.pendingPull;
  if (!plan) return;
  store.setPendingPull(null);
  store.setModelsError(null);
  await runPull(plan.target, build);
}

/** Pulls an installed model's source again: resumes a download, or builds what is downloaded. */
export async function runPull(target: string, build = true): Promise<void> {
  const pending = call(CHANNELS.pullModel, { modelId: target, build });
  void refreshModels(); // shows the pull as running
  try {
    await pending;
  } catch (err) {
    fail(err);
  }
  await refreshModels();
}

export async function cancelPull(modelId: string): Promise<void> {
  await call(CHANNELS.cancelPull, { modelId }).catch(fail);
}

export async function removeModel(modelId: string): Promise<void> {
  await call(CHANNELS.removeModel, { modelId }).catch(fail);
  await refreshModels();
}

export async function verifyModel(modelId: string): Promise<string> {
  try {
    const r = await call(CHANNELS.verifyModel, { modelId });
    return r.ok ? 'verified: every file matches its sha256' : r.problems.join('; ');
  } catch (err) {
    return toStudioError(err).message;
  }
}

/** Restarts the engine on an installed, ready model; the header and Voice page follow. */
export async function activateModel(modelId: string): Promise<void> {
  await switchModel(modelId);
  const error = useStudioStore.getState().voiceLoadError;
  if (error) useStudioStore.getState().setModelsError(error);
  await refreshModels();
}
