/**
 * The http BenchTarget: speaks the studio's HTTP API (or any server with the same shapes).
 *   api 'studio' (default): POST {url}/api/v1/tts {text?, ssml?, ssml_dialect?, lenient?, voice, seed, language?, stream?}
 *   api 'openai': POST {url}/v1/audio/speech {model, input, voice, response_format:'wav', stream, seed, language?};
 *                 the OpenAI shape has no SSML, so SSML requests fail with 'unsupported' (use api 'studio').
 *   status:       GET  {url}/status → EngineStatus JSON (queueDepth, numWaiting, numRunning, …)
 * Uses Node's global fetch (undici keeps connections alive by default). Loopback only unless allowRemote.
 */
import { StudioError } from '../../src-shared/errors';
import type { EnginePlanSummary, EngineSteps } from '../../src-shared/synthesis';
import type { BenchResponse, BenchSynthesisRequest, BenchTarget, BenchTargetDescription, BenchTargetStatus } from './target';
import { checkTargetUrl } from './url-safety';
import { wavDurationMs } from './wav-duration';

export type HttpTargetApi = 'openai' | 'studio';

export interface HttpTargetOptions {
  api: HttpTargetApi;
  /** The OpenAI `model` field. */
  model: string;
  allowRemote: boolean;
  /** GET path for the queue state; null disables status sampling. */
  statusPath: string | null;
  statusTimeoutMs: number;
  name?: string;
  headers?: Record<string, string>;
}

export function defaultHttpTargetOptions(): HttpTargetOptions {
  return { api: 'studio', model: 'qwen3-tts', allowRemote: false, statusPath: '/status', statusTimeoutMs: 1000 };
}

function requestBody(api: HttpTargetApi, model: string, req: BenchSynthesisRequest): Record<string, unknown> {
  const language = req.language === undefined ? {} : { language: req.language };
  if (api === 'openai') {
    // seed is a studio extension to the OpenAI shape
    return { model, input: req.text ?? '', voice: req.voice, response_format: 'wav', stream: req.stream, seed: req.seed, ...language };
  }
  const text = req.text === undefined ? {} : { text: req.text };
  const ssml = req.ssml === undefined ? {} : { ssml: req.ssml };
  const reading = req.ssml === undefined || !req.ssmlOptions ? {} : { ...(req.ssmlOptions.dialect ? { ssml_dialect: req.ssmlOptions.dialect } : {}), ...(req.ssmlOptions.lenient !== undefined ? { lenient: req.ssmlOptions.lenient } : {}) };
  return { ...text, ...ssml, ...reading, voice: req.voice, seed: req.seed, stream: req.stream, ...language };
}

async function readBody(response: Response, sentMs: number): Promise<{ bytes: Uint8Array; firstByteMs: number | null }> {
  if (!response.body) return { bytes: new Uint8Array(0), firstByteMs: null };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let firstByteMs: number | null = null;
  let numBytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (value.byteLength === 0) continue;
    if (firstByteMs === null) firstByteMs = performance.now() - sentMs;
    chunks.push(value);
    numBytes += value.byteLength;
  }
  const bytes = new Uint8Array(numBytes);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { bytes, firstByteMs };
}

/** The engine plan of a /status answer, where it names one with every field of the right type (else null). */
function planOf(value: unknown): EnginePlanSummary | null {
  if (!value || typeof value !== 'object') return null;
  const p = value as Record<string, unknown>;
  const texts = ['provider', 'capture', 'concurrency', 'shapeBuckets'];
  const counts = ['maxRunningSequences', 'maxPrefillSequences', 'talkerRows', 'talkerPrefillRows', 'codePredictorRows'];
  if (!texts.every((k) => typeof p[k] === 'string') || !counts.every((k) => typeof p[k] === 'number')) return null;
  return p as unknown as EnginePlanSummary;
}

/** The engine's step totals of a /status answer (null where absent or malformed). */
function stepsOf(value: unknown): EngineSteps | null {
  if (!value || typeof value !== 'object') return null;
  const s = value as Record<string, unknown>;
  return ['numSteps', 'totalStepMs', 'totalHostMs'].every((k) => typeof s[k] === 'number' && Number.isFinite(s[k])) ? (s as unknown as EngineSteps) : null;
}

function numberField(json: Record<string, unknown>, key: string): number | null {
  const value = json[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function createHttpTarget(url: string, overrides: Partial<HttpTargetOptions> = {}): BenchTarget {
  const options = { ...defaultHttpTargetOptions(), ...overrides };
  if (options.api !== 'openai' && options.api !== 'studio') {
    throw new StudioError('invalid-argument', `http target api "${String(options.api)}" is unknown; use 'openai' or 'studio'`, { field: 'api' });
  }
  const base = checkTargetUrl(url, options.allowRemote);
  const root = base.href.replace(/\/+$/, '');
  const synthPath = options.api === 'openai' ? '/v1/audio/speech' : '/api/v1/tts';
  const headers = { 'content-type': 'application/json', ...(options.headers ?? {}) };

  const fetchStatusJson = async (): Promise<Record<string, unknown> | null> => {
    if (options.statusPath === null) return null;
    try {
      const response = await fetch(root + options.statusPath, { signal: AbortSignal.timeout(options.statusTimeoutMs), headers: options.headers });
      if (!response.ok) {
        await response.body?.cancel();
        return null;
      }
      const json: unknown = await response.json();
      return json && typeof json === 'object' ? (json as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  };

  return {
    name: options.name ?? `http ${root} (${options.api})`,

    async synthesize(req: BenchSynthesisRequest, signal: AbortSignal): Promise<BenchResponse> {
      if (options.api === 'openai' && req.ssml !== undefined) {
        throw new StudioError('unsupported', `the OpenAI /v1/audio/speech shape carries no SSML, so the processed workload cannot run against ${root}; use the studio API (/api/v1/tts, CLI --api studio)`, { field: 'api' });
      }
      const sentMs = performance.now();
      let response: Response;
      try {
        response = await fetch(root + synthPath, {
          method: 'POST',
          headers,
          body: JSON.stringify(requestBody(options.api, options.model, req)),
          signal,
        });
      } catch (err) {
        if (signal.aborted) throw err;
        const message = err instanceof Error ? `${err.message}${err.cause instanceof Error ? `: ${err.cause.message}` : ''}` : String(err);
        throw new StudioError('network', `POST ${root}${synthPath} failed: ${message}; is the server running?`, { url: root + synthPath });
      }
      const { bytes, firstByteMs } = await readBody(response, sentMs);
      if (response.status !== 200) {
        const errorMessage = new TextDecoder().decode(bytes.subarray(0, 300));
        return { bytes, firstByteMs: null, status: response.status, audioDurationMs: null, errorMessage };
      }
      return { bytes, firstByteMs: req.stream ? firstByteMs : null, status: 200, audioDurationMs: wavDurationMs(bytes) };
    },

    async status(): Promise<BenchTargetStatus | null> {
      const json = await fetchStatusJson();
      if (!json) return null;
      const queueDepth = numberField(json, 'queueDepth');
      const numWaiting = numberField(json, 'numWaiting');
      const numRunning = numberField(json, 'numRunning');
      if (queueDepth === null || numWaiting === null || numRunning === null) return null;
      const steps = stepsOf(json.steps);
      return { queueDepth, numWaiting, numRunning, ...(steps ? { steps } : {}) };
    },

    async describe(): Promise<BenchTargetDescription> {
      const json = await fetchStatusJson();
      const model = json?.model && typeof json.model === 'object' ? (json.model as Record<string, unknown>) : null;
      const text = (v: unknown) => (typeof v === 'string' ? v : null);
      return {
        engineVersion: text(json?.version) ?? text(json?.engineVersion),
        provider: text(json?.provider),
        modelHash: text(model?.modelHash),
        plan: planOf(json?.plan),
      };
    },

    dispose() {},
  };
}
