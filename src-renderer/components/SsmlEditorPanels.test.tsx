// @vitest-environment jsdom
// The editor's visual panels through the UI: select words, move a slider and Apply → the document
// holds the prosody and the words show a mark with its badge (drawn from data-label: the text stays the document's); a pause shows as a badge; the lexicon
// editor adds an alias, lists it, previews just that word and removes it; plain-text mode turns both off.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { EditorView } from 'codemirror';
import { SsmlEditor } from './SsmlEditor';
import type { PronunciationPreview } from './PronunciationPanel';

const DOC = '<speak>Read the W3C notes slowly.</speak>';

function Harness(props: { initial: string; format?: 'ssml' | 'text'; preview?: PronunciationPreview; onText?(t: string): void }) {
  const [text, setText] = useState(props.initial);
  return (
    <SsmlEditor
      value={text}
      format={props.format ?? 'ssml'}
      diagnostics={[]}
      voiceNames={['ryan']}
      onChange={(t) => (setText(t), props.onText?.(t))}
      onSubmit={() => {}}
      preview={props.preview}
    />
  );
}

function select(container: HTMLElement, from: number, to: number): EditorView {
  const view = EditorView.findFromDOM(container.querySelector('.cm-editor') as HTMLElement)!;
  act(() => view.dispatch({ selection: { anchor: from, head: to } }));
  return view;
}

describe('SsmlEditor visual panels', () => {
  afterEach(cleanup);

  it('wraps the selected words in the prosody the sliders say and marks them with a badge', () => {
    const onText = vi.fn();
    const { container } = render(<Harness initial={DOC} onText={onText} />);
    const from = DOC.indexOf('notes');
    select(container, from, from + 'notes slowly'.length);
    fireEvent.change(screen.getByTestId('tune-rate'), { target: { value: '-20' } });
    fireEvent.change(screen.getByTestId('tune-pitch'), { target: { value: '-1.5' } });
    fireEvent.click(screen.getByTestId('tune-apply'));
    expect(onText).toHaveBeenLastCalledWith('<speak>Read the W3C <prosody rate="-20%" pitch="-1.5st">notes slowly</prosody>.</speak>');
    expect(container.querySelector('.cm-mark-prosody')?.textContent).toBe('notes slowly');
    expect(screen.getAllByTestId('mark-badge').map((b) => b.dataset.label)).toEqual(['rate -20% · pitch -1.5st']);
    expect(screen.getByTestId('tune-message').textContent).toBe('Prosody added around the selection.');

    fireEvent.click(screen.getByTestId('tune-break-insert'));
    expect(onText).toHaveBeenLastCalledWith('<speak>Read the W3C <prosody rate="-20%" pitch="-1.5st">notes slowly<break time="500ms"/></prosody>.</speak>');
    expect(screen.getAllByTestId('mark-badge').map((b) => b.dataset.label)).toContain('pause 500ms');
  });

  it('says why when nothing is selected, and leaves the document alone', () => {
    const onText = vi.fn();
    const { container } = render(<Harness initial={DOC} onText={onText} />);
    select(container, 9, 9);
    fireEvent.click(screen.getByTestId('tune-emphasis-apply'));
    expect(screen.getByTestId('tune-message').textContent).toMatch(/Select the words/);
    expect(onText).not.toHaveBeenCalled();
  });

  it('gives the selected word an alias, lists it, previews just that word and removes it', () => {
    const run = vi.fn();
    const onText = vi.fn();
    const { container } = render(<Harness initial={DOC} onText={onText} preview={{ run, busy: false, blocked: null }} />);
    const at = DOC.indexOf('W3C');
    select(container, at, at + 3);
    expect(screen.getByTestId('lexicon-word').textContent).toBe('“W3C”');
    fireEvent.change(screen.getByTestId('lexicon-alias'), { target: { value: 'World Wide Web' } });
    fireEvent.click(screen.getByTestId('lexicon-preview'));
    expect(run).toHaveBeenCalledWith('<speak><sub alias="World Wide Web">W3C</sub></speak>');
    fireEvent.click(screen.getByTestId('lexicon-apply'));
    expect(onText).toHaveBeenLastCalledWith('<speak>Read the <sub alias="World Wide Web">W3C</sub> notes slowly.</speak>');
    expect(screen.getAllByTestId('lexicon-entry')).toHaveLength(1);
    expect(screen.getByTestId('lexicon-entry').textContent).toContain('says “World Wide Web”');
    expect(container.querySelector('.cm-mark-sub')?.textContent).toBe('W3C');
    fireEvent.click(screen.getByTestId('lexicon-remove'));
    expect(onText).toHaveBeenLastCalledWith(DOC);
    expect(screen.queryAllByTestId('lexicon-entry')).toHaveLength(0);
  });

  it('offers no preview with the reason when the screen cannot speak, and turns both panels off in plain-text mode', () => {
    const { container, unmount } = render(<Harness initial={DOC} preview={{ run: vi.fn(), busy: false, blocked: 'Disconnected from the studio host.' }} />);
    select(container, DOC.indexOf('W3C'), DOC.indexOf('W3C') + 3);
    expect(screen.getByTestId('lexicon-preview')).toHaveProperty('disabled', true);
    expect(screen.getByTestId('lexicon-preview').getAttribute('title')).toBe('Disconnected from the studio host.');
    unmount();
    render(<Harness initial="plain words" format="text" />);
    expect(screen.getByTestId('tune-apply')).toHaveProperty('disabled', true);
    expect(screen.getByTestId('lexicon-apply')).toHaveProperty('disabled', true);
  });
});
