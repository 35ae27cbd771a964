/**
 * The OpenAI voice names (alloy, nova, …) and which model speaker each stands for: the default map,
 * a user's map (--openai-voice-map) and the lookup of a requested voice. Pure. The HTTP API resolves
 * voices with it; the voice library reserves its names. Below both (api/), so neither imports the other.
 */
import { z } from 'zod';
import { StudioError } from '../../src-shared/errors';

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

/** The model speaker for a requested voice: a speaker name as is, else the map's first available. */
export function resolveVoice(requested: string, speakers: readonly string[], voiceMap: Record<string, string[]>): string {
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
