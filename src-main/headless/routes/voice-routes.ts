/**
 * GET /v1/voices: the loaded model's speakers (asked of the engine host), the voice library's saved
 * voices (the model each was made with named without its path; none when the library is unavailable
 * on this host) and the OpenAI voice map this server resolves names with.
 */
import type { SavedVoice } from '../../../src-shared/contract/voices';
import type { StudioStack } from '../../app/studio-stack';
import { clientSavedVoices } from '../../access/client-view';
import { sendJson } from '../http-errors';
import type { HttpApiOptions, Route } from './api-route';

function savedVoiceList(stack: StudioStack): SavedVoice[] {
  try {
    return clientSavedVoices(stack.services.voiceLibrary().list());
  } catch {
    return [];
  }
}

export function createVoiceRoutes({ stack, voiceMap }: Pick<HttpApiOptions, 'stack' | 'voiceMap'>): Route[] {
  return [
    {
      pattern: /^\/v1\/voices$/,
      methods: { GET: async (_req, res) => sendJson(res, 200, { voices: await stack.host.call('listVoices', {}), saved: savedVoiceList(stack), openai: voiceMap }) },
    },
  ];
}
