// @vitest-environment jsdom
// Models page against an in-memory bridge: Pull sends the hub repo id (never the internal slug)
// after a size/free-space confirmation, offline state is shown, a blocked plan cannot be confirmed,
// a folder is imported through the same confirmation, Build and Use call the right channels.
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { installScriptedBridge, type ScriptedBridge } from '../../testing/scripted-bridge';
import { resetBetweenTests } from '../../testing/reset-between-tests';
import type { ModelEntry, ModelsState, PullPlan } from '../../../src-shared/contract/models';
import { ModelsPanel, formatSize } from './ModelsPanel';

const REPO = 'Qwen/Qwen3-TTS-12Hz-0.6B-CustomVoice';
const SLUG = 'Qwen--Qwen3-TTS-12Hz-0.6B-CustomVoice';
const KNOWN: ModelEntry = { id: SLUG, displayName: 'Qwen3-TTS 0.6B CustomVoice', kind: 'known', status: 'not-installed', synthetic: false, sizeBytes: 2_520_000_000, summary: 'Nine speakers', capabilities: [], repo: REPO, localPath: null };
const LOCAL: ModelEntry = { id: 'local--abc', displayName: 'local--abc', kind: 'installed', status: 'downloaded', synthetic: false, sizeBytes: 1000, summary: '/data/ckpt', capabilities: [], repo: null, localPath: '/data/ckpt' };
const READY: ModelEntry = { ...LOCAL, id: 'local--ready', status: 'ready' };

function installModelsBridge(opts: { offline?: boolean; plan?: Partial<PullPlan> } = {}): ScriptedBridge {
  const state: ModelsState = { offline: opts.offline ?? false, endpoint: 'http://127.0.0.1:9', modelsDir: '/data/models', freeBytes: 50_000_000_000, pulling: [] };
  return installScriptedBridge({
    'studio:models.list': [KNOWN, LOCAL, READY],
    'studio:models.state': state,
    'studio:models.planPull': ({ modelId }) => ({ target: modelId, kind: modelId.startsWith('/') ? 'local' : 'hub', id: SLUG, status: null, downloadBytes: 2_520_000_000, buildBytes: 5_040_000_000, freeBytes: 50_000_000_000, offline: false, blockedReason: null, ...opts.plan }),
    'studio:models.pull': KNOWN,
    'studio:engine.loadModel': null,
    'studio:engine.modelInfo': null,
    'studio:tts.listVoices': [],
  });
}

describe('ModelsPanel', () => {
  resetBetweenTests();

  it('Pull asks for confirmation with sizes, then sends the hub repo id, not the slug', async () => {
    const bridge = installModelsBridge();
    render(<ModelsPanel />);
    fireEvent.click(await screen.findByTestId(`pull-${SLUG}`));
    const card = await screen.findByTestId('pull-confirm');
    expect(bridge.requestsTo('studio:models.planPull')).toEqual([{ modelId: REPO }]);
    expect(card.textContent).toContain('about 2.52 GB');
    expect(screen.getByTestId('pull-free-space').textContent).toBe('50.0 GB');
    expect(bridge.requestsTo('studio:models.pull')).toEqual([]); // nothing downloads before the confirmation
    fireEvent.click(screen.getByTestId('pull-confirm-go'));
    await waitFor(() => expect(bridge.requestsTo('studio:models.pull')).toEqual([{ modelId: REPO, build: true }]));
    expect(screen.queryByTestId('pull-confirm')).toBeNull();
  });

  it('shows the offline state and a blocked plan cannot be confirmed', async () => {
    const bridge = installModelsBridge({ offline: true, plan: { offline: true, blockedReason: 'offline mode is on (STUDIO_OFFLINE=1)' } });
    render(<ModelsPanel />);
    expect((await screen.findByTestId('models-online')).textContent).toMatch(/Offline/);
    fireEvent.click(await screen.findByTestId(`pull-${SLUG}`));
    expect((await screen.findByTestId('pull-blocked')).textContent).toContain('STUDIO_OFFLINE=1');
    expect((screen.getByTestId('pull-confirm-go') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByTestId('pull-confirm')).toBeNull();
    expect(bridge.requestsTo('studio:models.pull')).toEqual([]);
  });

  it('imports a folder through the same confirmation, builds a downloaded model and uses a ready one', async () => {
    const bridge = installModelsBridge();
    render(<ModelsPanel />);
    fireEvent.change(screen.getByTestId('import-path'), { target: { value: '  /data/my-ckpt ' } });
    fireEvent.click(screen.getByTestId('import-check'));
    expect((await screen.findByTestId('pull-confirm')).textContent).toMatch(/Import \/data\/my-ckpt/);
    fireEvent.click(screen.getByRole('button', { name: 'Import only' }));
    await waitFor(() => expect(bridge.requestsTo('studio:models.pull')).toEqual([{ modelId: '/data/my-ckpt', build: false }]));

    fireEvent.click(await screen.findByTestId('build-local--abc'));
    await waitFor(() => expect(bridge.requestsTo('studio:models.pull').at(-1)).toEqual({ modelId: 'local--abc', build: true }));
    fireEvent.click(screen.getByTestId('use-local--ready'));
    await waitFor(() => expect(bridge.requestsTo('studio:engine.loadModel')).toEqual([{ modelId: 'local--ready' }]));
  });

  it('formats sizes in decimal units', () => {
    expect(formatSize(null)).toBe('unknown');
    expect(formatSize(999)).toBe('999 B');
    expect(formatSize(2_520_000_000)).toBe('2.52 GB');
  });
});
