/**
 * Render page actions: list renders and the queue URL, follow their change events, start a render
 * of the editor's document, pasted text, a project or a granted file with the Voice page's voice,
 * language, seed and parameters, cancel, resume, and set the queue URL (empty: this machine).
 */
import { CHANNELS, EVENTS } from '../../../src-shared/ipc-contract';
import { toStudioError } from '../../../src-shared/errors';
import type { RenderSource } from '../../../src-shared/contract/render';
import type { RecentProject } from '../../../src-shared/contract/projects';
import { call, isDesktopApp, subscribe } from '../../ipc/client';
import { useStudioStore } from '../../store/store';

function fail(err: unknown): void {
  useStudioStore.getState().setRenderError(toStudioError(err).message);
}

/** Loads renders and the queue URL, and keeps them current; returns the unsubscribe. */
export function followRenders(): () => void {
  const s = useStudioStore.getState();
  const unsubscribe = subscribe(EVENTS.onDidChangeRender, (job) => useStudioStore.getState().upsertRender(job));
  void Promise.all([call(CHANNELS.listRenders, {}), call(CHANNELS.getRenderQueue, {})])
    .then(([renders, queue]) => {
      s.setRenders(renders);
      s.setRenderQueueUrl(queue.queueUrl);
    })
    .catch(fail);
  return unsubscribe;
}

export async function startRender(source: RenderSource, options: { seed: number; outputDir?: string }): Promise<void> {
  const s = useStudioStore.getState();
  const v = s.voiceSettings;
  try {
    s.setRenderError(null);
    const job = await call(CHANNELS.startRender, {
      source,
      voice: v.voice,
      language: v.language,
      seed: options.seed,
      ...(v.params ? { params: v.params } : {}),
      ...(options.outputDir ? { outputDir: options.outputDir } : {}),
    });
    s.upsertRender(job);
  } catch (err) {
    fail(err);
  }
}

export async function cancelRender(jobId: string): Promise<void> {
  try {
    await call(CHANNELS.cancelRender, { jobId });
  } catch (err) {
    fail(err);
  }
}

export async function resumeRender(jobId: string): Promise<void> {
  try {
    useStudioStore.getState().setRenderError(null);
    useStudioStore.getState().upsertRender(await call(CHANNELS.resumeRender, { jobId }));
  } catch (err) {
    fail(err);
  }
}

export async function saveRenderQueue(queueUrl: string): Promise<void> {
  try {
    useStudioStore.getState().setRenderError(null);
    useStudioStore.getState().setRenderQueueUrl((await call(CHANNELS.setRenderQueue, { queueUrl: queueUrl.trim() || null })).queueUrl);
  } catch (err) {
    fail(err);
  }
}

/** The projects a render can start from: the projects folder's files, then recent ones elsewhere. */
export async function listRenderableProjects(): Promise<RecentProject[]> {
  try {
    const [inFolder, recent] = await Promise.all([call(CHANNELS.listProjects, {}), call(CHANNELS.listRecent, {})]);
    return [...inFolder, ...recent.filter((r) => !inFolder.some((p) => p.path === r.path))];
  } catch (err) {
    fail(err);
    return [];
  }
}

/** The desktop app's open dialog for a document to render (its pick becomes readable); null when cancelled or in a browser. */
export async function chooseRenderDocument(): Promise<string | null> {
  if (!isDesktopApp()) return null;
  try {
    return (await call(CHANNELS.showOpenDocument, {})).path;
  } catch (err) {
    fail(err);
    return null;
  }
}
