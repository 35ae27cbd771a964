/**
 * GET /v1/voices: the loaded model's speakers (asked of the engine host), the voice library's saved
 * voices (the model each was made with named without its path; none when the library is unavailable
 * on this host) and the OpenAI voice map this server resolves names with.
 */
import type { SavedVoice } from '../../../src-shared/contract/voices';
import type { StudioRuntime } from '../../app/studio-runtime';
import { clientSavedVoices } from '../../access/client-view';
import { sendJson } from '../http-errors';
import type { HttpApiOptions, Route } from './api-route';

function savedVoiceList(runtime: StudioRuntime): SavedVoice[] {
  try {
    return clientSavedVoices(runtime.services.voiceLibrary().list());
  } catch {
    return [];
  }
}

export function createVoiceRoutes({ runtime, voiceMap }: Pick<HttpApiOptions, 'runtime' | 'voiceMap'>): Route[] {
  return [
    {
      pattern: /^\/v1\/voices$/,
      methods: { GET: async (_req, res) => sendJson(res, 200, { voices: await runtime.host.call('listVoices', {}), saved: savedVoiceList(runtime), openai: voiceMap }) },
    },
  ];
}
