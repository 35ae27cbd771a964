/**
 * The SSML editor's colours, light and dark: the editor's background and text, gutter, active line,
 * selection, and one colour per kind of XML token (tag names, attribute names and values, entities,
 * comments, brackets, processing instructions, errors), each at least WCAG AA (4.5:1) against the
 * backgrounds it is drawn on (ssml-editor-theme.test.tsx measures them). The backgrounds match the
 * shell's --bg (app.css). Dark marks CodeMirror's dark theme, so its tooltips and panels are dark too.
 */
import { EditorView } from '@codemirror/view';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import type { Extension } from '@codemirror/state';
import { tags } from '@lezer/highlight';

export type ColourScheme = 'light' | 'dark';

export interface EditorPalette {
  background: string;
  foreground: string;
  activeLine: string;
  selection: string;
  cursor: string;
  gutterBackground: string;
  gutterForeground: string;
  /** Token colours, drawn on the background, the active line and the selection. */
  tokens: {
    tagName: string;
    attributeName: string;
    attributeValue: string;
    entity: string;
    comment: string;
    bracket: string;
    meta: string;
    invalid: string;
  };
}

export const EDITOR_PALETTES: { readonly [S in ColourScheme]: EditorPalette } = Object.freeze({
  light: {
    background: '#fafafa',
    foreground: '#1b1b1f',
    activeLine: '#eef1f8',
    selection: '#cfdcf5',
    cursor: '#1b1b1f',
    gutterBackground: '#f0f0f2',
    gutterForeground: '#5f5f68',
    tokens: { tagName: '#1f55b0', attributeName: '#8a4a00', attributeValue: '#17692a', entity: '#a3276a', comment: '#5e5e68', bracket: '#55555e', meta: '#6236b0', invalid: '#b71c1c' },
  },
  dark: {
    background: '#17181c',
    foreground: '#e8e8ec',
    activeLine: '#1f2127',
    selection: '#2b3a55',
    cursor: '#e8e8ec',
    gutterBackground: '#1c1d22',
    gutterForeground: '#9a9aa3',
    tokens: { tagName: '#7cb7ff', attributeName: '#e5bd6e', attributeValue: '#9ad68b', entity: '#f29fc5', comment: '#aaaab4', bracket: '#b0b2bc', meta: '#c0a8ff', invalid: '#ff8a80' },
  },
});

function buildTheme(scheme: ColourScheme): Extension {
  const p = EDITOR_PALETTES[scheme];
  const t = p.tokens;
  return [
    EditorView.theme(
      {
        '&': { backgroundColor: p.background, color: p.foreground },
        '.cm-content': { caretColor: p.cursor },
        '.cm-cursor, .cm-dropCursor': { borderLeftColor: p.cursor },
        '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection': { backgroundColor: p.selection },
        '.cm-activeLine': { backgroundColor: p.activeLine },
        '.cm-gutters': { backgroundColor: p.gutterBackground, color: p.gutterForeground, borderRight: 'none' },
        '.cm-activeLineGutter': { backgroundColor: p.activeLine, color: p.foreground },
      },
      { dark: scheme === 'dark' },
    ),
    syntaxHighlighting(
      HighlightStyle.define([
        { tag: tags.tagName, color: t.tagName },
        { tag: tags.attributeName, color: t.attributeName },
        { tag: [tags.attributeValue, tags.string], color: t.attributeValue },
        { tag: tags.character, color: t.entity },
        { tag: tags.comment, color: t.comment, fontStyle: 'italic' },
        { tag: [tags.angleBracket, tags.definitionOperator, tags.punctuation], color: t.bracket },
        { tag: [tags.processingInstruction, tags.documentMeta, tags.meta], color: t.meta },
        { tag: tags.invalid, color: t.invalid },
      ]),
    ),
  ];
}

const built = new Map<ColourScheme, Extension>();

/** The editor extension for `scheme` (made once per scheme). */
export function ssmlEditorTheme(scheme: ColourScheme): Extension {
  let theme = built.get(scheme);
  if (!theme) built.set(scheme, (theme = buildTheme(scheme)));
  return theme;
}
