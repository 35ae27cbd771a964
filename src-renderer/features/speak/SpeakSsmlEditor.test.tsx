// @vitest-environment jsdom
// Speak's SSML mode: the SSML editor with its panels replaces the text box, the parser's diagnostics
// arrive from the live check (with the screen's language) and are counted for Speak's Generate, Ctrl+Enter
// does not send a document with problems, and the lexicon's preview synthesises just the word with the current voice, unsaved.
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { EditorView } from 'codemirror';
import { useStudioStore } from '../../store/store';
import { installScriptedBridge } from '../../testing/scripted-bridge';
import { resetBetweenTests } from '../../testing/reset-between-tests';
import type { SynthesisRequest } from '../../../src-shared/synthesis';
import { SpeakSsmlEditor } from './SpeakSsmlEditor';

vi.mock('../../components/pcm-player', () => ({ playPcm: vi.fn() }));

const DOC = '<speak>Read the W3C notes.</speak>';
// jsdom lays nothing out; CodeMirror measures text ranges after a selection
Range.prototype.getClientRects ??= () => ({ length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] }) as unknown as DOMRectList;
Range.prototype.getBoundingClientRect ??= () => new DOMRect();

describe('SpeakSsmlEditor', () => {
  resetBetweenTests();

  it('shows the live check\'s problems, reports how many, and keeps Ctrl+Enter from sending them', async () => {
    const bridge = installScriptedBridge({ 'studio:ssml.validate': { ok: false, diagnostics: [{ line: 1, column: 9, message: 'SSML 1:9: <prosody> is not closed' }] } });
    useStudioStore.setState({ speakText: '<speak><prosody>x</speak>', speakFormat: 'ssml' });
    const onSubmit = vi.fn();
    const onProblems = vi.fn();
    render(<SpeakSsmlEditor blocker={null} running={false} onSubmit={onSubmit} onProblems={onProblems} checkDelayMs={0} />);
    expect((await screen.findByTestId('ssml-diagnostics')).textContent).toContain('<prosody> is not closed');
    // the count arrives in an effect, which may run after the diagnostics are on screen (seen on a loaded CPU)
    await waitFor(() => expect(onProblems).toHaveBeenLastCalledWith(1)); // Speak keeps Generate off meanwhile
    expect(bridge.requestsTo('studio:ssml.validate')[0]).toMatchObject({ text: '<speak><prosody>x</speak>', language: useStudioStore.getState().voiceSettings.language });
    fireEvent.keyDown(screen.getByTestId('editor-content'), { key: 'Enter', ctrlKey: true });
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends a clean document with Ctrl+Enter, and previews the selected word with its alias in the current voice, not streamed and not saved', async () => {
    const bridge = installScriptedBridge({ 'studio:ssml.validate': { ok: true, numTurns: 1 }, 'studio:tts.synthesize': { pcm: new Float32Array(10), sampleRateHz: 24_000 } });
    useStudioStore.setState({ speakText: DOC, speakFormat: 'ssml' });
    useStudioStore.getState().updateVoiceSettings({ voice: 'vivian' });
    const onSubmit = vi.fn();
    const { container } = render(<SpeakSsmlEditor blocker={null} running={false} onSubmit={onSubmit} checkDelayMs={0} />);
    await waitFor(() => expect(bridge.requestsTo('studio:ssml.validate')).toHaveLength(1));
    fireEvent.keyDown(screen.getByTestId('editor-content'), { key: 'Enter', ctrlKey: true });
    expect(onSubmit).toHaveBeenCalledTimes(1); // a clean document is sent by Ctrl+Enter
    const view = EditorView.findFromDOM(container.querySelector('.cm-editor') as HTMLElement)!;
    act(() => view.dispatch({ selection: { anchor: DOC.indexOf('W3C'), head: DOC.indexOf('W3C') + 3 } }));
    fireEvent.change(screen.getByTestId('lexicon-alias'), { target: { value: 'World Wide Web' } });
    fireEvent.click(screen.getByTestId('lexicon-preview'));
    await waitFor(() => expect(bridge.requestsTo('studio:tts.synthesize')).toHaveLength(1));
    const request = bridge.requestsTo('studio:tts.synthesize')[0] as SynthesisRequest;
    expect(request).toMatchObject({ input: '<speak><sub alias="World Wide Web">W3C</sub></speak>', inputFormat: 'ssml', voice: 'vivian', stream: false });
    expect(bridge.requestsTo('studio:library.saveClip')).toEqual([]);
    await waitFor(() => expect(useStudioStore.getState().previewingVoice).toBeNull());
  });

  it('offers no preview while Generate is blocked, and says why', () => {
    installScriptedBridge({ 'studio:ssml.validate': { ok: true, numTurns: 1 } });
    useStudioStore.setState({ speakText: DOC, speakFormat: 'ssml' });
    const { container } = render(<SpeakSsmlEditor blocker="Disconnected from the studio host." running={false} onSubmit={() => {}} checkDelayMs={0} />);
    const view = EditorView.findFromDOM(container.querySelector('.cm-editor') as HTMLElement)!;
    act(() => view.dispatch({ selection: { anchor: DOC.indexOf('W3C'), head: DOC.indexOf('W3C') + 3 } }));
    expect(screen.getByTestId('lexicon-preview')).toHaveProperty('disabled', true);
    expect(screen.getByTestId('lexicon-preview').getAttribute('title')).toBe('Disconnected from the studio host.');
  });
});
