/**
 * The headless host's HTTP API routes: OpenAI-compatible POST /v1/audio/speech, POST /api/v1/tts,
 * GET /status, /readyz, /v1/models[/{id}], /v1/voices (the model's speakers and the saved voices). Access (Host, Origin, token) is decided by
 * the server before a route runs; here: methods (405 + Allow, HEAD), JSON bodies only (415),
 * byte caps (413), strict schemas (400 naming the field), 503 + Retry-After while draining.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StudioError, toStudioError } from '../../src-shared/errors';
import { EVENTS } from '../../src-shared/ipc-contract';
import type { AudioChunk, SynthesisRequest, SynthesisResult } from '../../src-shared/synthesis';
import type { StudioRuntime } from '../app/studio-runtime';
import type { SavedVoice } from '../../src-shared/contract/voices';
import { timeStretch } from '../audio/time-stretch';
import { createAudioEncodeStream, encodeAudio, type AudioEncodeStream } from '../audio/encode-audio';
import { contentTypeFor, type AudioFormat } from '../../src-shared/audio-format';
import { sendError, sendJson } from './http-errors';
import { parseBody, readJsonBody } from './request-body';
import { publicModelId } from '../models/model-store';
import { clientModelInfo, clientSavedVoices } from '../access/client-view';
import { clientIdOf } from '../access/access-policy';
import {
  OPENAI_MODEL_ALIASES,
  modelMatches,
  speechBodySchema,
  speechToRequest,
  ttsBodySchema,
  ttsToRequest,
} from './speech-routes';
import { resolveVoice } from '../api/openai-voices';

/** What the API needs to know of the server's lifecycle. */
export interface ApiLifecycle {
  readonly draining: boolean;
  /** Counts a response as in flight until it has been fully written or its client went away. */
  track(res: ServerResponse): void;
}

export interface HttpApiOptions {
  runtime: StudioRuntime;
  lifecycle: ApiLifecycle;
  voiceMap: Record<string, string[]>;
  log: (m: string) => void;
}

interface AudioAnswer {
  format: AudioFormat;
  speed: number;
  sse: boolean;
}

type Handler = (req: IncomingMessage, res: ServerResponse, params: string[]) => Promise<void>;
interface Route {
  pattern: RegExp;
  methods: { GET?: Handler; POST?: Handler };
}

/** Header-safe JSON of warnings: percent-encoded UTF-8 (any language, any emoji), whole entries only. */
export function warningsHeaderValue(warnings: readonly string[], maxChars = 4000): string {
  // Percent-encoding works per code point, so the encoded array is '[' + encoded items joined by ',' + ']':
  // each item is encoded once instead of the whole growing prefix again.
  const [open, comma, close] = ['[', ',', ']'].map(encodeURIComponent);
  const items: string[] = [];
  let length = open.length + close.length;
  for (const w of warnings) {
    const item = encodeURIComponent(JSON.stringify(w));
    const added = item.length + (items.length > 0 ? comma.length : 0);
    if (length + added > maxChars) break;
    items.push(item);
    length += added;
  }
  return open + items.join(comma) + close;
}

/** How long /status waits for the engine host's own answer before it reports the last known one. */
export const STATUS_CALL_TIMEOUT_MS = 2_000;

/** The engine state /status reports when the host cannot say (not started, restarting, failed, or not answering). */
function stateWithoutHost(hostState: string): string {
  return hostState === 'ready' ? 'unresponsive' : hostState === 'disposed' ? 'failed' : hostState;
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), timeoutMs);
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      () => (clearTimeout(timer), resolve(null)),
    );
  });
}

function sseEvent(payload: unknown): string {
  return `data: ${JSON.stringify(payload)}\n\n`;
}

export function createHttpApi(options: HttpApiOptions) {
  const { runtime, lifecycle } = options;

  function refuseWhileDraining(): void {
    if (lifecycle.draining) throw new StudioError('unavailable', 'the studio is shutting down and takes no new requests; retry on the restarted host', { retryAfterS: 5 });
  }

  /** Runs one request and answers with audio: a whole file, a raw stream, or server-sent events. */
  async function synthesize(res: ServerResponse, request: SynthesisRequest, answer: AudioAnswer): Promise<void> {
    refuseWhileDraining();
    lifecycle.track(res);
    let finished = false;
    // Chunks go out as produced only where the bytes do not depend on the whole clip (speed stretches the whole).
    const streamChunks = request.stream === true && answer.speed === 1;
    const out: { encoder: AudioEncodeStream | null; failure: Error | null } = { encoder: null, failure: null };
    res.on('close', () => {
      if (finished) return;
      void runtime.host.call('cancel', { requestId: request.requestId }).catch(() => {});
      void out.encoder?.cancel();
    });
    let started = false;
    const begin = (sampleRateHz: number): void => {
      started = true;
      res.writeHead(200, {
        'content-type': answer.sse ? 'text/event-stream; charset=utf-8' : contentTypeFor(answer.format),
        'cache-control': 'no-cache',
        'x-request-id': request.requestId,
        'x-sample-rate': String(sampleRateHz),
      });
    };
    const send = (bytes: Uint8Array): void => {
      if (bytes.byteLength === 0 || res.destroyed) return;
      if (answer.sse) res.write(sseEvent({ type: 'speech.audio.delta', audio: Buffer.from(bytes).toString('base64') }));
      else res.write(bytes);
    };
    const ctx = {
      callerId: `http-${request.requestId}`,
      clientId: clientIdOf(res.socket?.remoteAddress),
      role: 'client' as const,
      emit: (event: string, payload: unknown) => {
        if (!streamChunks || event !== EVENTS.onDidProduceAudio || out.failure) return;
        const chunk = payload as AudioChunk;
        if (!out.encoder) {
          begin(chunk.sampleRateHz);
          out.encoder = createAudioEncodeStream({ sampleRateHz: chunk.sampleRateHz, format: answer.format, onBytes: send });
        }
        out.encoder.write(chunk.pcm).catch((err: Error) => (out.failure ??= err));
      },
    };
    const reply = await runtime.dispatcher.dispatch('studio:tts.synthesize', request, ctx);
    finished = true;
    if (!reply.ok) {
      void out.encoder?.cancel();
      if (started && answer.sse) {
        options.log(`[http] ${request.requestId} failed mid-stream: ${reply.error.code}: ${reply.error.message}`);
        res.end(sseEvent({ type: 'error', error: { message: reply.error.message, code: reply.error.code } }));
        return;
      }
      throw StudioError.fromSerialized(reply.error); // before any byte went out: handle() answers and logs it
    }
    const result = reply.value as SynthesisResult;
    const pcm = answer.speed === 1 ? result.pcm : timeStretch(result.pcm, result.sampleRateHz, answer.speed);
    const usage = { input_tokens: result.timings.numPromptTokens, output_tokens: result.timings.numFrames, total_tokens: result.timings.numPromptTokens + result.timings.numFrames };
    if (request.stream) {
      if (out.encoder) await out.encoder.end().catch((err: Error) => (out.failure ??= err));
      if (out.failure) {
        options.log(`[http] ${request.requestId} encoder failed mid-stream: ${out.failure.message}`);
        res.destroy();
        return;
      }
      if (!started) {
        // No chunk was streamed (speed ≠ 1, or the clip came whole): one piece, then the end.
        const whole = await encodeAudio({ pcm, sampleRateHz: result.sampleRateHz, format: answer.format });
        begin(result.sampleRateHz);
        send(whole.bytes);
      }
      res.end(answer.sse ? sseEvent({ type: 'speech.audio.done', usage }) : undefined);
      return;
    }
    const encoded = await encodeAudio({ pcm, sampleRateHz: result.sampleRateHz, format: answer.format });
    res.writeHead(200, {
      'content-type': encoded.contentType,
      'content-length': String(encoded.bytes.byteLength),
      'x-request-id': request.requestId,
      'x-sample-rate': String(encoded.sampleRateHz),
      'x-studio-timings': JSON.stringify(result.timings),
      ...(result.warnings.length > 0 ? { 'x-studio-warnings': warningsHeaderValue(result.warnings) } : {}),
    });
    res.end(encoded.bytes);
  }

  // The loaded model's speakers, asked of the engine host once per model (by the model the last status named).
  let speakerCache: { modelId: string; names: string[] } | null = null;
  async function speakers(): Promise<string[]> {
    const modelId = runtime.host.lastKnownStatus?.model?.id;
    if (modelId !== undefined && speakerCache?.modelId === modelId) return speakerCache.names;
    const names = (await runtime.host.call('listVoices', {})).map((v) => v.name);
    if (modelId !== undefined) speakerCache = { modelId, names };
    return names;
  }

  /** The voice library's voices (the model each was made with named without its path); none when the library is unavailable on this host. */
  function savedVoices(): SavedVoice[] {
    try {
      return clientSavedVoices(runtime.services.voiceLibrary().list());
    } catch {
      return [];
    }
  }

  /** A saved voice's id or name goes through as its id (the services attach what it needs); else a speaker or OpenAI name. */
  function requestVoice(requested: string): Promise<string> {
    return resolveVoice(requested, { saved: savedVoices(), speakers, voiceMap: options.voiceMap });
  }

  async function loadedModelId(): Promise<string | null> {
    const id = runtime.host.lastKnownStatus?.model?.id ?? (await runtime.host.call('modelInfo', {}))?.id ?? null;
    return id === null ? null : publicModelId(id);
  }

  function modelEntry(id: string) {
    return { id, object: 'model', created: 0, owned_by: 'local' };
  }

  // A status call the host left unanswered (a stopped or blocked host) makes /readyz and /status say
  // not ready alike, until a status call is answered again or the host changes state.
  let statusUnanswered = false;
  let recheck: Promise<unknown> | null = null;
  runtime.host.onDidChangeState((): void => void (statusUnanswered = false));
  async function askStatus() {
    const live = await withTimeout(runtime.host.call('status', {}), STATUS_CALL_TIMEOUT_MS);
    statusUnanswered = live === null;
    return live;
  }

  /** The one readiness /readyz and /status both report (synchronous: a stuck host cannot stall it). */
  function readiness(): { ready: boolean; state: string; detail: string } {
    const health = runtime.host.health();
    if (lifecycle.draining) return { ready: false, state: 'draining', detail: 'shutting down' };
    if (!health.ready) return { ready: false, state: stateWithoutHost(health.state), detail: health.detail };
    if (statusUnanswered) return { ready: false, state: 'unresponsive', detail: `the engine host did not answer a status call within ${STATUS_CALL_TIMEOUT_MS} ms` };
    return { ready: true, state: 'ready', detail: health.detail };
  }

  /**
   * Engine status without local paths (the last known one while the host restarts, is not ready or
   * does not answer within STATUS_CALL_TIMEOUT_MS, with the state saying so), plus the supervisor's
   * cumulative counters, which survive engine restarts. Never waits on the host for longer than that.
   */
  async function status(): Promise<Record<string, unknown>> {
    const health = runtime.host.health();
    const live = health.ready ? await askStatus() : null;
    const s = live ?? runtime.host.lastKnownStatus;
    const { ready, state, detail } = readiness();
    const model = clientModelInfo(s?.model ?? null);
    return { ...s, state: ready && live ? live.state : state, model, hostState: health.state, ready, readyDetail: detail, totals: runtime.host.requestCounters(), engines: runtime.host.engineEntries() };
  }

  const routes: Route[] = [
    {
      pattern: /^\/status$/,
      methods: { GET: async (_req, res) => sendJson(res, 200, await status()) },
    },
    {
      pattern: /^\/readyz$/,
      methods: {
        GET: async (_req, res) => {
          // Synchronous: a stuck engine host cannot stall the probe; one unanswered status call is asked again in the background.
          const { ready, state, detail } = readiness();
          if (statusUnanswered && !recheck && runtime.host.health().ready) recheck = askStatus().finally(() => (recheck = null));
          sendJson(res, ready ? 200 : 503, ready ? { ready, state } : { ready, state, detail }, ready ? {} : { 'retry-after': '2' });
        },
      },
    },
    {
      pattern: /^\/v1\/models$/,
      methods: {
        GET: async (_req, res) => {
          const id = await loadedModelId();
          sendJson(res, 200, { object: 'list', data: id ? [modelEntry(id), ...OPENAI_MODEL_ALIASES.map(modelEntry)] : [] });
        },
      },
    },
    {
      pattern: /^\/v1\/models\/(.+)$/,
      methods: {
        GET: async (_req, res, [id]) => {
          if (!modelMatches(id, await loadedModelId())) throw new StudioError('not-found', `model '${id.slice(0, 200)}' is not served here; GET /v1/models lists what is`, { field: 'model' });
          sendJson(res, 200, modelEntry(id));
        },
      },
    },
    {
      pattern: /^\/v1\/voices$/,
      methods: { GET: async (_req, res) => sendJson(res, 200, { voices: await runtime.host.call('listVoices', {}), saved: savedVoices(), openai: options.voiceMap }) },
    },
    {
      pattern: /^\/v1\/audio\/speech$/,
      methods: {
        POST: async (req, res) => {
          refuseWhileDraining();
          const body = parseBody(speechBodySchema, await readJsonBody(req));
          if (!modelMatches(body.model, await loadedModelId())) {
            throw new StudioError('not-found', `model '${body.model}' is not served here; use ${OPENAI_MODEL_ALIASES.join(', ')} or the id from GET /v1/models`, { field: 'model' });
          }
          const voice = await requestVoice(typeof body.voice === 'string' ? body.voice : body.voice.id);
          await synthesize(res, speechToRequest(body, voice), { format: body.response_format, speed: body.speed, sse: body.stream_format === 'sse' });
        },
      },
    },
    {
      pattern: /^\/api\/v1\/tts$/,
      methods: {
        POST: async (req, res) => {
          refuseWhileDraining();
          const body = parseBody(ttsBodySchema, await readJsonBody(req));
          const voice = await requestVoice(body.voice);
          await synthesize(res, ttsToRequest(body, voice), { format: body.response_format, speed: body.speed, sse: false });
        },
      },
    },
  ];

  return {
    /** Whether `pathname` belongs to the API (the server checks access before calling handle). */
    owns(pathname: string): boolean {
      return pathname === '/status' || pathname === '/readyz' || pathname.startsWith('/v1/') || pathname.startsWith('/api/');
    },
    /** Answers an API request; returns the status sent. */
    async handle(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<number> {
      try {
        const route = routes.find((r) => r.pattern.test(pathname));
        if (!route) throw new StudioError('not-found', `no API route ${req.method} ${pathname.slice(0, 200)}; see the README's HTTP API section`);
        const method = req.method === 'HEAD' ? 'GET' : (req.method as 'GET' | 'POST');
        const handler = route.methods[method];
        if (!handler) {
          const allow = Object.keys(route.methods).flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])).join(', ');
          const err = new StudioError('method-not-allowed', `${req.method} is not allowed on ${pathname}; use ${allow}`, { allow });
          return sendError(res, err, { allow });
        }
        const params = route.pattern.exec(pathname)!.slice(1);
        await handler(req, res, params);
        return res.statusCode;
      } catch (err) {
        const status = sendError(res, err);
        if (status >= 500) options.log(`[http] ${req.method} ${pathname} answered ${status}: ${toStudioError(err).code}: ${toStudioError(err).message}`);
        return status;
      }
    },
  };
}

