/**
 * The one resolver of a requested voice (resolveVoice: a saved voice, a model speaker or an OpenAI
 * name such as alloy), the default OpenAI voice map and a user's (--openai-voice-map). Pure. The HTTP
 * API resolves voices with it; the voice library reserves its names; the saved-voice match is the
 * contract's (findSavedVoice), which the services and the engine host use too.
 */
import { z } from 'zod';
import { StudioError } from '../../src-shared/errors';
import { findSavedVoice, type SavedVoice } from '../../src-shared/contract/voices';

/**
 * OpenAI voice → model speakers in order of preference (the first one the loaded model has wins).
 * Chosen by the voices' published character (gender, register); override with --openai-voice-map.
 */
export function defaultOpenAiVoiceMap(): Record<string, string[]> {
  return {
    alloy: ['serena', 'vivian', 'ryan'],
    ash: ['aiden', 'ryan'],
    ballad: ['ryan', 'aiden'],
    coral: ['vivian', 'serena'],
    echo: ['ryan', 'aiden'],
    fable: ['eric', 'ryan'],
    onyx: ['uncle_fu', 'ryan'],
    nova: ['serena', 'vivian'],
    sage: ['sohee', 'serena'],
    shimmer: ['vivian', 'serena'],
    verse: ['dylan', 'ryan'],
    marin: ['ono_anna', 'serena'],
    cedar: ['aiden', 'ryan'],
  };
}

/** Reads a user's voice map ({"alloy": "ryan", "nova": ["serena", "vivian"]}); names the bad entry. */
export function parseVoiceMap(json: unknown): Record<string, string[]> {
  const schema = z.record(z.string().min(1).max(64), z.union([z.string().min(1).max(64), z.array(z.string().min(1).max(64)).min(1).max(16)]));
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new StudioError('invalid-argument', `the OpenAI voice map is not {"voice": "speaker" | ["speaker", ...]}: ${issue.path.join('.') || '(root)'}: ${issue.message}`, { field: 'openai-voice-map' });
  }
  const map: Record<string, string[]> = {};
  for (const [name, target] of Object.entries(parsed.data)) map[name.toLowerCase()] = (Array.isArray(target) ? target : [target]).map((s) => s.toLowerCase());
  return map;
}

/** What a requested voice may name: saved voices, the loaded model's speakers (asked for only when no saved voice matches) and OpenAI names. */
export interface VoiceNames {
  saved: readonly Pick<SavedVoice, 'id' | 'name'>[];
  speakers: () => Promise<readonly string[]>;
  voiceMap: Record<string, string[]>;
}

/**
 * The voice a request speaks in: a saved voice's id or name → its id (the services attach what it
 * needs); a speaker of the loaded model as is; an OpenAI name → the map's first speaker the model has.
 */
export async function resolveVoice(requested: string, names: VoiceNames): Promise<string> {
  const saved = findSavedVoice(requested, names.saved);
  if (saved) return saved.id;
  const speakers = await names.speakers();
  if (speakers.length > 0) return speakerFor(requested, speakers, names.voiceMap);
  // A Base or VoiceDesign model has no speakers: only saved voices can be named.
  const savedNames = names.saved.map((v) => v.name);
  throw new StudioError('invalid-argument', `voice '${requested.slice(0, 64)}' is not a saved voice and this model has no preset speakers; use one of: ${savedNames.join(', ') || '(none saved: clone or design one first, see GET /v1/voices)'}`, {
    field: 'voice',
    allowed: savedNames,
  });
}

/** The model speaker for a requested voice: a speaker name as is, else the map's first available. */
function speakerFor(requested: string, speakers: readonly string[], voiceMap: Record<string, string[]>): string {
  const name = requested.toLowerCase();
  if (speakers.includes(name)) return name;
  const preferred = voiceMap[name];
  if (preferred) {
    const hit = preferred.find((s) => speakers.includes(s));
    // A model without any mapped speaker (a synthetic test model) still answers with its first one.
    if (hit ?? speakers[0]) return hit ?? speakers[0];
  }
  throw new StudioError('invalid-argument', `voice '${requested.slice(0, 64)}' is not a speaker of this model nor an OpenAI voice name; use one of ${[...speakers, ...Object.keys(voiceMap)].join(', ')}`, {
    field: 'voice',
    allowed: [...speakers, ...Object.keys(voiceMap)],
  });
}
