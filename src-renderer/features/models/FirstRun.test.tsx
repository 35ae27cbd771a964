// @vitest-environment jsdom
// First run against an in-memory bridge: on a fresh data folder (no installed model) the panel
// shows the synthetic-model note, and the two ways to a real model when unfolded; a folder is checked, confirmed
// (import and build), and the built model is one click ("Use …") from active; a folder with an
// installed model, or "Not now", shows nothing.
import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { resetStore, useStudioStore } from '../../store/store';
import { installScriptedBridge, type ScriptedBridge } from '../../testing/scripted-bridge';
import { resetBetweenTests } from '../../testing/reset-between-tests';
import type { ModelEntry } from '../../../src-shared/contract/models';
import { FirstRun } from './FirstRun';
import { FIRST_RUN_STORAGE_KEY, isFreshDataFolder } from './first-run';

const EMBEDDED: ModelEntry = { id: 'embedded:tiny', displayName: 'Embedded tiny', kind: 'embedded', status: 'ready', synthetic: true, sizeBytes: null, summary: 'noise', capabilities: [], repo: null, localPath: null };
const KNOWN: ModelEntry = { id: 'Qwen--X', displayName: 'Qwen3-TTS 0.6B', kind: 'known', status: 'not-installed', synthetic: false, sizeBytes: 2_520_000_000, summary: 'Nine speakers', capabilities: [], repo: 'Qwen/X', localPath: null };
const IMPORTED: ModelEntry = { id: 'local--ckpt', displayName: 'ckpt', kind: 'installed', status: 'ready', synthetic: false, sizeBytes: 1000, summary: '', capabilities: [], repo: null, localPath: '/data/ckpt' };

function installFirstRunBridge(initial: ModelEntry[]): ScriptedBridge {
  let list = initial;
  return installScriptedBridge({
    'studio:models.list': () => list,
    'studio:models.state': { offline: false, endpoint: 'http://127.0.0.1:9', modelsDir: '/m', freeBytes: 1e10, pulling: [] },
    'studio:models.planPull': { target: '/data/ckpt', kind: 'local', id: IMPORTED.id, status: null, downloadBytes: 0, buildBytes: 5000, freeBytes: 1e10, offline: false, blockedReason: null },
    'studio:models.pull': () => {
      list = [...list, IMPORTED];
      return IMPORTED;
    },
  });
}

describe('FirstRun', () => {
  resetBetweenTests();
  beforeEach(() => window.localStorage.clear());

  it('is for a data folder with no installed model', () => {
    expect(isFreshDataFolder([EMBEDDED, KNOWN])).toBe(true);
    expect(isFreshDataFolder([EMBEDDED, KNOWN, IMPORTED])).toBe(false);
    expect(isFreshDataFolder([])).toBe(false); // not known yet
  });

  it('imports a folder after its confirmation and offers Use; the note says the default makes noise', async () => {
    const bridge = installFirstRunBridge([EMBEDDED, KNOWN]);
    render(<FirstRun />);
    expect((await screen.findByTestId('synthetic-notice')).textContent).toContain('noise, not speech');
    // the store hears of it from an effect after the render that shows the notice
    await waitFor(() => expect(useStudioStore.getState().firstRunOpen).toBe(true));
    // Compact at first: the two ways unfold on request.
    expect(screen.queryByTestId('first-run-path')).toBeNull();
    fireEvent.click(screen.getByTestId('first-run-toggle'));
    expect(screen.getByTestId('first-run-toggle').getAttribute('aria-expanded')).toBe('true');
    expect((screen.getByTestId('first-run-pull-Qwen--X') as HTMLButtonElement).disabled).toBe(false);
    fireEvent.change(screen.getByTestId('first-run-path'), { target: { value: '/data/ckpt' } });
    fireEvent.click(screen.getByTestId('first-run-check'));
    fireEvent.click(await screen.findByTestId('pull-confirm-go'));
    const use = await screen.findByTestId('first-run-use');
    expect(use.textContent).toBe('Use ckpt');
    expect(bridge.requestsTo('studio:models.pull')[0]).toEqual({ modelId: '/data/ckpt', build: true });
    fireEvent.click(use);
    await waitFor(() => expect(bridge.requestsTo('studio:engine.loadModel')).not.toHaveLength(0));
  });

  it('shows nothing when a model is installed, or after Not now (remembered)', async () => {
    installFirstRunBridge([EMBEDDED, KNOWN, IMPORTED]);
    const { unmount } = render(<FirstRun />);
    await waitFor(() => expect(useStudioStore.getState().models).toHaveLength(3));
    expect(screen.queryByTestId('first-run')).toBeNull();
    unmount();
    resetStore();
    installFirstRunBridge([EMBEDDED, KNOWN]);
    render(<FirstRun />);
    fireEvent.click(await screen.findByTestId('first-run-dismiss'));
    expect(screen.queryByTestId('first-run')).toBeNull();
    expect(window.localStorage.getItem(FIRST_RUN_STORAGE_KEY)).toBe('dismissed');
  });
});
