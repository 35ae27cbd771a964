/**
 * Voices as people know them: clips, takes and traces record a saved voice by its id ('v-…') and a
 * model speaker by the name the model knows ('uncle_fu'); voiceDisplayName is the one name every
 * screen shows for either ('Anna Reads', 'Uncle Fu'; a deleted voice says so). A search for a name
 * finds the voices it names, so the Library can list the clips spoken in them. Pure.
 */
import { VOICE_ID_PATTERN, type SavedVoice } from '../../src-shared/contract/voices';

/**
 * The name to show for a recorded voice, wherever a voice or speaker is shown: a saved voice's
 * name (recorded by id, or by name as SSML may), a deleted saved voice as such, and a model
 * speaker as a person reads it (speakerDisplayName).
 */
export function voiceDisplayName(voice: string, saved: readonly Pick<SavedVoice, 'id' | 'name'>[]): string {
  const found = saved.find((v) => v.id === voice) ?? saved.find((v) => v.name === voice);
  if (found) return found.name;
  return VOICE_ID_PATTERN.test(voice) ? `${voice} (deleted voice)` : speakerDisplayName(voice);
}

/**
 * The voices, as clips record them, whose name contains `search` (case-insensitively): built-in
 * speakers by name, saved voices by id and by name (SSML may name one either way). Empty search: none.
 */
export function voicesMatching(search: string, builtIn: readonly { name: string }[], saved: readonly Pick<SavedVoice, 'id' | 'name'>[]): string[] {
  const key = search.trim().toLowerCase();
  if (key === '') return [];
  const hits = (name: string) => name.toLowerCase().includes(key);
  return [...new Set([...builtIn.filter((v) => hits(v.name)).map((v) => v.name), ...saved.filter((v) => hits(v.name)).flatMap((v) => [v.id, v.name])])];
}

/**
 * A model speaker's name as a person reads it: 'uncle_fu' → 'Uncle Fu', 'ono_anna' → 'Ono Anna'.
 * For display only; requests, SSML and clips keep the name the model knows.
 */
export function speakerDisplayName(name: string): string {
  return name
    .split(/[_\s]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

/** The option label of a saved voice in a speaker picker. */
export function savedVoiceLabel(v: Pick<SavedVoice, 'name' | 'kind'>): string {
  return `${v.name} — ${v.kind === 'clone' ? 'cloned' : 'designed'}`;
}
