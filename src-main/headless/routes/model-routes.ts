/**
 * GET /v1/models and GET /v1/models/{id}: the loaded model under its public id (no local path) plus
 * OpenAI's model names as its aliases (synthesis-bodies.ts); an id not served here is 404 naming the
 * list. loadedModelId is also what POST /v1/audio/speech checks its `model` against.
 */
import { StudioError } from '../../../src-shared/errors';
import type { StudioStack } from '../../app/studio-stack';
import { publicModelId } from '../../models/model-store';
import { sendJson } from '../http-errors';
import { OPENAI_MODEL_ALIASES, modelMatches } from '../synthesis-bodies';
import type { Route } from './api-route';

/** The loaded model's public id (the last status's, else asked of the host); null when none is loaded. */
export async function loadedModelId(stack: StudioStack): Promise<string | null> {
  const id = stack.host.lastKnownStatus?.model?.id ?? (await stack.host.call('modelInfo', {}))?.id ?? null;
  return id === null ? null : publicModelId(id);
}

function modelEntry(id: string) {
  return { id, object: 'model', created: 0, owned_by: 'local' };
}

export function createModelRoutes({ stack }: { stack: StudioStack }): Route[] {
  return [
    {
      pattern: /^\/v1\/models$/,
      methods: {
        GET: async (_req, res) => {
          const id = await loadedModelId(stack);
          sendJson(res, 200, { object: 'list', data: id ? [modelEntry(id), ...OPENAI_MODEL_ALIASES.map(modelEntry)] : [] });
        },
      },
    },
    {
      pattern: /^\/v1\/models\/(.+)$/,
      methods: {
        GET: async (_req, res, [id]) => {
          if (!modelMatches(id, await loadedModelId(stack))) throw new StudioError('not-found', `model '${id.slice(0, 200)}' is not served here; GET /v1/models lists what is`, { field: 'model' });
          sendJson(res, 200, modelEntry(id));
        },
      },
    },
  ];
}
