// @vitest-environment jsdom
// Shortcuts act only where they belong: Esc inside a text field cancels nothing, Ctrl+Enter does
// nothing on pages without a generator and not past SSML problems, Ctrl+Z undoes timeline edits
// only on the Timeline and not inside a field.
import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, render } from '@testing-library/react';
import { useStudioStore } from '../store/store';
import { installScriptedBridge, type ScriptedBridge } from '../testing/scripted-bridge';
import { resetBetweenTests } from '../testing/reset-between-tests';
import type { ClipRecord } from '../../src-shared/contract/library';
import { useStudioKeys } from './useStudioKeys';

function Host() {
  useStudioKeys();
  return <input aria-label="Project name" data-testid="field" />;
}

describe('useStudioKeys', () => {
  resetBetweenTests();
  let bridge: ScriptedBridge;
  const channels = () => bridge.calls.map((c) => c.channel);
  beforeEach(() => {
    bridge = installScriptedBridge({});
    useStudioStore.getState().upsertJob({ jobId: 'j', requestId: 'r', kind: 'full', turnIndex: null, seed: 1, state: 'running', progress: {}, firstAudioAtMs: null, error: null, createdAtMs: 0 });
  });

  it('Esc in a text field does not cancel generations; outside one it does', async () => {
    const { getByTestId } = render(<Host />);
    fireEvent.keyDown(getByTestId('field'), { key: 'Escape' });
    await new Promise((r) => setTimeout(r, 0));
    expect(channels()).not.toContain('studio:tts.cancel');
    fireEvent.keyDown(document.body, { key: 'Escape' });
    await new Promise((r) => setTimeout(r, 0));
    expect(channels()).toContain('studio:tts.cancel');
  });

  it('Ctrl+Enter generates only on Timeline without SSML problems (or speaks on Speak)', async () => {
    render(<Host />);
    useStudioStore.getState().setArea('models');
    fireEvent.keyDown(document.body, { key: 'Enter', ctrlKey: true });
    useStudioStore.getState().setArea('timeline');
    useStudioStore.getState().setDiagnostics([{ line: 1, column: 1, message: 'bad', severity: 'error' } as never], null);
    fireEvent.keyDown(document.body, { key: 'Enter', ctrlKey: true });
    await new Promise((r) => setTimeout(r, 0));
    expect(channels()).not.toContain('studio:tts.synthesize');
    useStudioStore.getState().setDiagnostics([], 1);
    fireEvent.keyDown(document.body, { key: 'Enter', ctrlKey: true });
    await new Promise((r) => setTimeout(r, 0));
    expect(channels()).toContain('studio:tts.synthesize');
  });

  it('Ctrl+Z undoes a timeline edit on the Timeline, not in a field and not on other pages', () => {
    const { getByTestId } = render(<Host />);
    const clip = { id: 'c', createdAtMs: 0, seed: 1, numSamples: 10, turnSpans: [{ turnIndex: 0, startSample: 0, endSample: 10 }] } as ClipRecord;
    useStudioStore.getState().setBaseClip(clip, null, [], () => 'k');
    useStudioStore.getState().setTurnEdit(0, { gainDb: -3 });
    useStudioStore.getState().setArea('speak');
    fireEvent.keyDown(document.body, { key: 'z', ctrlKey: true });
    useStudioStore.getState().setArea('timeline');
    fireEvent.keyDown(getByTestId('field'), { key: 'z', ctrlKey: true });
    expect(useStudioStore.getState().turns[0].edit?.gainDb).toBe(-3);
    fireEvent.keyDown(document.body, { key: 'z', ctrlKey: true });
    expect(useStudioStore.getState().turns[0].edit).toBeUndefined();
    fireEvent.keyDown(document.body, { key: 'Z', ctrlKey: true, shiftKey: true });
    expect(useStudioStore.getState().turns[0].edit?.gainDb).toBe(-3);
  });

  it('Ctrl+Z that undoes a take choice tells the Library the choice it goes back to', async () => {
    render(<Host />);
    const clip = { id: 'c', createdAtMs: 0, seed: 1, numSamples: 10, turnSpans: [{ turnIndex: 0, startSample: 0, endSample: 10 }] } as ClipRecord;
    useStudioStore.getState().setBaseClip(clip, null, [], () => 'k');
    useStudioStore.getState().addTake(0, { takeId: 'k2', clipId: 't', seed: 2, startSample: 0, endSample: 10, createdAtMs: 1 });
    useStudioStore.getState().setArea('timeline');
    fireEvent.keyDown(document.body, { key: 'z', ctrlKey: true });
    await new Promise((r) => setTimeout(r, 0));
    expect(useStudioStore.getState().turns[0].chosenTakeId).toBe('k');
    expect(channels()).toContain('studio:library.updateClip');
  });
});
