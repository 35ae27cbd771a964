// @vitest-environment jsdom
// Generate from the Timeline area against an in-memory bridge: Ctrl/Cmd+Enter in the editor is
// refused like the disabled Generate button while the live check reports SSML problems, and says
// why beside Generate; the failure box of a generation goes away once a later one succeeds.
import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useStudioStore } from '../store/store';
import { installScriptedBridge, type ScriptedBridge } from '../testing/scripted-bridge';
import { resetBetweenTests } from '../testing/reset-between-tests';
import { GenerationPanel } from '../features/timeline/GenerationPanel';
import type { GenerationJob } from '../shared-state/generation-job';
import { Workspace } from './Workspace';

const BROKEN = '<speak>\n  <voice name="ryan">Unclosed\n</speak>';

function installBrokenSsmlBridge(): ScriptedBridge {
  return installScriptedBridge({
    'studio:ssml.validate': { ok: false, diagnostics: [{ line: 3, column: 3, message: '</speak> does not match <voice> opened at 2:3' }] },
    'studio:projects.list': [],
    'studio:projects.listRecent': [],
  });
}

function job(jobId: string, state: GenerationJob['state'], error: GenerationJob['error'] = null): GenerationJob {
  return { jobId, requestId: `r-${jobId}`, kind: 'full', turnIndex: null, seed: 1, state, progress: {}, firstAudioAtMs: null, error, createdAtMs: 0 };
}

describe('Generate on the Timeline', () => {
  resetBetweenTests();

  it('refuses Ctrl+Enter in the editor while the SSML has problems, and says why', async () => {
    const bridge = installBrokenSsmlBridge();
    useStudioStore.getState().setEditorText(BROKEN);
    const { container } = render(<Workspace />);
    await screen.findByTestId('ssml-diagnostics');
    expect((screen.getByTestId('generate') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(container.querySelector('.cm-content')!, { key: 'Enter', code: 'Enter', ctrlKey: true });
    expect(useStudioStore.getState().jobs).toEqual([]); // no generation was queued
    await waitFor(() => expect(screen.getByTestId('generate-refused').textContent).toContain('line 3, column 3: </speak> does not match <voice>'));
    expect(bridge.requestsTo('studio:tts.synthesize')).toEqual([]);
    // Fixed: the check comes back clean and the reason goes.
    act(() => useStudioStore.getState().setDiagnostics([], 1));
    await waitFor(() => expect(screen.queryByTestId('generate-refused')).toBeNull());
  });

  it('shows a generation’s failure until a later generation succeeds', () => {
    render(<GenerationPanel />);
    const { upsertJob, patchJob } = useStudioStore.getState();
    act(() => upsertJob(job('a', 'failed', { code: 'internal', message: 'the engine fell over' })));
    expect(screen.getByTestId('generation-error').textContent).toContain('the engine fell over');
    act(() => upsertJob(job('b', 'running')));
    expect(screen.getByTestId('generation-error')).toBeTruthy(); // still the latest finished one
    act(() => patchJob('b', { state: 'done' }));
    expect(screen.queryByTestId('generation-error')).toBeNull();
    act(() => upsertJob(job('c', 'failed', { code: 'internal', message: 'second failure' })));
    expect(screen.getByTestId('generation-error').textContent).toContain('second failure');
  });
});
