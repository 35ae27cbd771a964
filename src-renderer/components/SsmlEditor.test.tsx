// @vitest-environment jsdom
// The editor's inline diagnostics: every parser position, including one past the end of its
// line, becomes an underlined range (.cm-lintRange-error) on the reported line.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
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

  it('underlines from the reported column to the end of the line', () => {
    const { container } = renderWith([{ line: 3, column: 4, message: 'bad' }]);
    expect(underlined(container).join('')).toBe('prosody rate="90%">Not closed.');
  });

  it('underlines the line text when the column is one past the end of the line (the parser reports 4:9 for "</speak>")', () => {
    const { container } = renderWith([{ line: 4, column: 9, message: 'SSML 4:9: unexpected close tag.' }]);
    expect(underlined(container).join('')).toBe('</speak>');
    expect(container.querySelector('.cm-lintPoint')).toBeNull();
  });

  it('underlines the text of an indented line from its first character when the column is past the end', () => {
    const { container } = renderWith([{ line: 2, column: 80, message: 'bad' }]);
    expect(underlined(container).join('')).toBe('<voice name="ryan">Fine.</voice>');
  });

  it('clamps a line beyond the document to the last line', () => {
    const { container } = renderWith([{ line: 99, column: 1, message: 'bad' }]);
    expect(underlined(container).join('')).toBe('</speak>');
  });

  it('shows diagnostics that arrive after the editor was created and clears them when they go', () => {
    const { container, rerender } = renderWith([]);
    expect(underlined(container)).toEqual([]);
    rerender(<SsmlEditor value={DOC} format="ssml" diagnostics={[{ line: 4, column: 9, message: 'late' }]} voiceNames={['ryan']} onChange={() => {}} onSubmit={() => {}} />);
    expect(underlined(container).join('')).toBe('</speak>');
    rerender(<SsmlEditor value={DOC} format="ssml" diagnostics={[]} voiceNames={['ryan']} onChange={() => {}} onSubmit={() => {}} />);
    expect(underlined(container)).toEqual([]);
  });
});
