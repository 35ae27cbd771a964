/**
 * The HTTP API's one voice lookup: a requested voice is resolved (api/openai-voices.ts resolveVoice:
 * a saved voice by id or name, then a speaker of the loaded model, then an OpenAI name) against one
 * read of the voice library, and that read goes on with the request (CallContext.savedVoices), so the
 * services pick the saved voices to attach from it instead of reading the library again.
 */
import type { SavedVoiceConditioning } from '../../../src-shared/contract/voices';
import type { StudioStack } from '../../app/studio-stack';
import { resolveVoice } from '../../api/openai-voices';

export interface ResolvedVoice {
  /** What the request's `voice` says: a saved voice's id (the services attach what it needs) or a model speaker. */
  voice: string;
  /** The voice library as read for this request; none when the library is unavailable on this host. */
  savedVoices: readonly SavedVoiceConditioning[];
}

export type VoiceLookup = (requested: string) => Promise<ResolvedVoice>;

export function createVoiceLookup(stack: StudioStack, voiceMap: Record<string, string[]>): VoiceLookup {
  // The loaded model's speakers, asked of the engine host once per model (by the model the last status named).
  let speakerCache: { modelId: string; names: string[] } | null = null;
  async function speakers(): Promise<string[]> {
    const modelId = stack.host.lastKnownStatus?.model?.id;
    if (modelId !== undefined && speakerCache?.modelId === modelId) return speakerCache.names;
    const names = (await stack.host.call('listVoices', {})).map((v) => v.name);
    if (modelId !== undefined) speakerCache = { modelId, names };
    return names;
  }
  return async (requested) => {
    const savedVoices = stack.services.savedVoiceLibrary();
    return { voice: await resolveVoice(requested, { saved: savedVoices, speakers, voiceMap }), savedVoices };
  };
}
