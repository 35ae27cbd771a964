// @vitest-environment jsdom
// The editor's inline diagnostics: every parser position, including one past the end of its
// line, becomes an underlined range (.cm-lintRange-error) on the reported line.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { SsmlEditor, type EditorDiagnostic } from './SsmlEditor';

const DOC = '<speak>\n  <voice name="ryan">Fine.</voice>\n  <prosody rate="90%">Not closed.\n</speak>';

function renderWith(diagnostics: EditorDiagnostic[], value = DOC) {
  return render(<SsmlEditor value={value} format="ssml" diagnostics={diagnostics} voiceNames={['ryan']} onChange={() => {}} onSubmit={() => {}} />);
}

function underlined(container: HTMLElement): string[] {
  return Array.from(container.querySelectorAll('.cm-lintRange-error')).map((el) => el.textContent ?? '');
}

describe('SsmlEditor diagnostics', () => {
  afterEach(cleanup);

  it.each([
    { when: 'from the reported column to the end of the line', at: { line: 3, column: 4 }, text: 'prosody rate="90%">Not closed.' },
    { when: 'the line text when the column is one past the end of the line (the parser reports 4:9 for "</speak>")', at: { line: 4, column: 9 }, text: '</speak>' },
    { when: 'the text of an indented line from its first character when the column is past the end', at: { line: 2, column: 80 }, text: '<voice name="ryan">Fine.</voice>' },
    { when: 'the last line for a line beyond the document (clamped)', at: { line: 99, column: 1 }, text: '</speak>' },
  ])('underlines $when', ({ at, text }) => {
    const { container } = renderWith([{ ...at, message: 'bad' }]);
    expect(underlined(container).join('')).toBe(text);
    expect(container.querySelector('.cm-lintPoint')).toBeNull();
  });

  it('shows diagnostics that arrive after the editor was created and clears them when they go', () => {
    const { container, rerender } = renderWith([]);
    expect(underlined(container)).toEqual([]);
    rerender(<SsmlEditor value={DOC} format="ssml" diagnostics={[{ line: 4, column: 9, message: 'late' }]} voiceNames={['ryan']} onChange={() => {}} onSubmit={() => {}} />);
    expect(underlined(container).join('')).toBe('</speak>');
    rerender(<SsmlEditor value={DOC} format="ssml" diagnostics={[]} voiceNames={['ryan']} onChange={() => {}} onSubmit={() => {}} />);
    expect(underlined(container)).toEqual([]);
  });
  it('states the position once: "Line 4, column 9:" without the error\'s own "SSML 4:9:" prefix', () => {
    renderWith([{ line: 4, column: 9, message: 'SSML 4:9: <prosody> opened on line 3 is not closed; add </prosody>' }]);
    const items = screen.getByTestId('ssml-diagnostics').querySelectorAll('li');
    expect(items).toHaveLength(1);
    expect(items[0].textContent).toBe('Line 4, column 9: <prosody> opened on line 3 is not closed; add </prosody>');
  });
});
