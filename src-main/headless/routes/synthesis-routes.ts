/**
 * POST /v1/audio/speech (OpenAI's shape: model checked against the loaded one, 404 naming the
 * aliases) and POST /api/v1/tts: a JSON body (request-body.ts: 415, 413) read strictly by its schema
 * (../synthesis-bodies.ts: 400 naming the field), the voice resolved by the one voice lookup, then the
 * audio (audio-response.ts). 503 + Retry-After while the server drains.
 */
import { StudioError } from '../../../src-shared/errors';
import { parseBody, readJsonBody } from '../request-body';
import { OPENAI_MODEL_ALIASES, modelMatches, speechBodySchema, speechToRequest, ttsBodySchema, ttsToRequest } from '../synthesis-bodies';
import { refuseWhileDraining, type HttpApiOptions, type Route } from './api-route';
import { sendSynthesizedAudio } from './audio-response';
import { loadedModelId } from './model-routes';
import type { VoiceLookup } from './voice-lookup';

export function createSynthesisRoutes(options: HttpApiOptions, lookupVoice: VoiceLookup): Route[] {
  const { stack, lifecycle } = options;
  return [
    {
      pattern: /^\/v1\/audio\/speech$/,
      methods: {
        POST: async (req, res) => {
          refuseWhileDraining(lifecycle);
          const body = parseBody(speechBodySchema, await readJsonBody(req));
          if (!modelMatches(body.model, await loadedModelId(stack))) {
            throw new StudioError('not-found', `model '${body.model}' is not served here; use ${OPENAI_MODEL_ALIASES.join(', ')} or the id from GET /v1/models`, { field: 'model' });
          }
          const { voice, savedVoices } = await lookupVoice(typeof body.voice === 'string' ? body.voice : body.voice.id);
          await sendSynthesizedAudio(options, res, speechToRequest(body, voice), savedVoices, { format: body.response_format, speed: body.speed, sse: body.stream_format === 'sse' });
        },
      },
    },
    {
      pattern: /^\/api\/v1\/tts$/,
      methods: {
        POST: async (req, res) => {
          refuseWhileDraining(lifecycle);
          const body = parseBody(ttsBodySchema, await readJsonBody(req));
          const { voice, savedVoices } = await lookupVoice(body.voice);
          await sendSynthesizedAudio(options, res, ttsToRequest(body, voice), savedVoices, { format: body.response_format, speed: body.speed, sse: false });
        },
      },
    },
  ];
}
