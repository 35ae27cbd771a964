/**
 * What a new project starts with, which the editor, the Timeline, Projects and the Library all
 * compare against to tell an untouched project from work: the sample document, how its SSML is
 * read (dialect auto, strict), the name of a project nobody has named yet, and fresh ids. Pure.
 */
import type { SsmlDialect } from '../../src-shared/synthesis';

/** The name of a project nobody has named yet. */
export const UNTITLED_PROJECT_NAME = 'Untitled project';

export const DEFAULT_DOCUMENT = `<speak>
  <voice name="ryan">Welcome to the studio. This is the first turn.</voice>
  <break time="300ms"/>
  <voice name="vivian"><prosody rate="90%">And this is the second turn.</prosody></voice>
</speak>
`;

/** How the editor's SSML is read; defaults: dialect auto, strict. */
export interface EditorSsmlOptions {
  dialect: SsmlDialect;
  lenient: boolean;
}

export function defaultEditorSsmlOptions(): EditorSsmlOptions {
  return { dialect: 'auto', lenient: false };
}

/** A fresh id (project, job, take): a UUID where the browser has one. */
export function randomId(): string {
  return globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}
