/**
 * The editor's document: the text, whether it is SSML or plain text, how its SSML is read
 * (dialect, strict or lenient; stored in the project and sent with Generate), what the
 * studio's SSML parser reported for it with those settings, and why Generate last refused it.
 */
import type { StateCreator } from 'zustand';
import type { SsmlDiagnostic } from '../../../src-shared/contract/projects';
import type { SsmlDialect } from '../../../src-shared/synthesis';
import { fieldSetters } from '../../store/field-setters';
import { DEFAULT_DOCUMENT, defaultEditorSsmlOptions, type EditorSsmlOptions } from '../../shared-state/project-defaults';

/** What the last check found besides errors: the dialect read (what auto chose) and warnings. */
export interface SsmlCheckInfo {
  dialect: Exclude<SsmlDialect, 'auto'> | null;
  dialectDetectedFrom: string | null;
  warnings: SsmlDiagnostic[];
}

export interface EditorSlice {
  editorText: string;
  editorFormat: 'text' | 'ssml';
  editorSsmlOptions: EditorSsmlOptions;
  diagnostics: SsmlDiagnostic[];
  /** Turns the parser found in the last valid document. */
  numTurnsDetected: number | null;
  ssmlCheck: SsmlCheckInfo;
  /** Why the last Generate (button or Ctrl/Cmd+Enter) was refused; cleared once the document checks clean. */
  generateRefusal: string | null;
  setEditorText(text: string): void;
  setEditorFormat(format: 'text' | 'ssml'): void;
  setEditorSsmlOptions(options: Partial<EditorSsmlOptions>): void;
  setDiagnostics(diagnostics: SsmlDiagnostic[], numTurns: number | null, check?: SsmlCheckInfo): void;
  setGenerateRefusal(reason: string | null): void;
}

const NO_CHECK: SsmlCheckInfo = { dialect: null, dialectDetectedFrom: null, warnings: [] };

export const createEditorSlice: StateCreator<EditorSlice, [], [], EditorSlice> = (set) => ({
  editorText: DEFAULT_DOCUMENT,
  editorFormat: 'ssml',
  editorSsmlOptions: defaultEditorSsmlOptions(),
  diagnostics: [],
  numTurnsDetected: null,
  ssmlCheck: NO_CHECK,
  generateRefusal: null,
  ...fieldSetters(set, ['editorText', 'generateRefusal']),
  setEditorFormat: (editorFormat) => set({ editorFormat, diagnostics: [], ssmlCheck: NO_CHECK, generateRefusal: null }),
  setEditorSsmlOptions: (options) => set((s) => ({ editorSsmlOptions: { ...s.editorSsmlOptions, ...options } })),
  setDiagnostics: (diagnostics, numTurnsDetected, ssmlCheck = NO_CHECK) =>
    set((s) => ({ diagnostics, numTurnsDetected, ssmlCheck, generateRefusal: diagnostics.length === 0 ? null : s.generateRefusal })),
});
