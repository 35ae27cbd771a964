/**
 * Benchmark dashboard actions: start a run (following its live samples and its end), stop it,
 * load past runs, export a run as JSON / Markdown / HTML.
 */
import { CHANNELS, EVENTS } from '../../../src-shared/ipc-contract';
import { toStudioError } from '../../../src-shared/errors';
import { call, subscribe } from '../../ipc/client';
import { useStudioStore } from '../../store/store';
import { downloadBytes } from '../../components/wav-encode';

let unfollow: (() => void) | null = null;

export async function startBench(): Promise<void> {
  const s = useStudioStore.getState();
  unfollow?.();
  const offs = [
    subscribe(EVENTS.onDidSample, (sample) => useStudioStore.getState().addBenchSample(sample)),
    subscribe(EVENTS.onDidFinishRun, (run) => {
      useStudioStore.getState().upsertBenchRun(run);
      if (run.error) useStudioStore.getState().setBenchError(run.error);
    }),
  ];
  unfollow = () => offs.forEach((off) => off());
  try {
    const { runId } = await call(CHANNELS.startRun, s.benchForm);
    useStudioStore.getState().startBenchView(runId);
    useStudioStore.getState().upsertBenchRun(await call(CHANNELS.getRun, { runId }));
  } catch (err) {
    useStudioStore.getState().setBenchError(toStudioError(err).message);
  }
}

export async function stopBench(): Promise<void> {
  const runId = useStudioStore.getState().benchRunId;
  if (runId) await call(CHANNELS.stopRun, { runId }).catch((err: unknown) => useStudioStore.getState().setBenchError(toStudioError(err).message));
}

export async function loadBenchRuns(): Promise<void> {
  try {
    useStudioStore.getState().setBenchRuns(await call(CHANNELS.listRuns, {}));
  } catch (err) {
    useStudioStore.getState().setBenchError(toStudioError(err).message);
  }
}

/** The voices a run may speak in: the model's speakers (already in the store) and the saved voices. */
export async function loadBenchVoices(): Promise<void> {
  try {
    const saved = await call(CHANNELS.listSavedVoices, {});
    if (Array.isArray(saved)) useStudioStore.getState().setSavedVoices(saved);
  } catch {
    // no library on this host: the model's speakers only
  }
}

export async function exportBench(runId: string, format: 'json' | 'markdown' | 'html'): Promise<void> {
  try {
    const file = await call(CHANNELS.exportRun, { runId, format });
    downloadBytes(file.text, file.fileName, file.mimeType);
  } catch (err) {
    useStudioStore.getState().setBenchError(toStudioError(err).message);
  }
}
