/**
 * The headless host's HTTP API: OpenAI-compatible POST /v1/audio/speech, POST /api/v1/tts (the
 * load-test shape), GET /status, /readyz, /v1/models, /v1/voices. Bodies are size-limited and
 * schema-validated (400 names the field); overload answers 429 with Retry-After; a client that
 * disconnects cancels its request. No CORS headers are sent.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { StudioError, httpStatusForError, toStudioError } from '../../src-shared/errors';
import { EVENTS } from '../../src-shared/ipc-contract';
import type { AudioChunk, SsmlDialect, SynthesisRequest, SynthesisResult } from '../../src-shared/synthesis';
import { describeIssues } from '../api/schemas';
import { encodeWavBytes, floatToPcm16 } from '../engine/wav-bytes';
import { encodeWavStreamHeader } from './pcm-stream';

/** Little-endian 16-bit PCM bytes of float samples. */
const pcm16Bytes = (pcm: Float32Array): Uint8Array => new Uint8Array(floatToPcm16(pcm).buffer);
import type { StudioRuntime } from '../runtime/studio-runtime';

export const MAX_BODY_BYTES = 1_100_000;

// ---- issue 26: how SSML is read (both endpoints) ----
/** `ssml_dialect` (auto | ssml11 | azure | google | polly, default auto) and `lenient` (default false). */
const ssmlHttpFields = {
  ssml_dialect: z.enum(['auto', 'ssml11', 'azure', 'google', 'polly']).optional(),
  lenient: z.boolean().optional(),
};

function ssmlOptionsFromBody(body: { ssml_dialect?: SsmlDialect; lenient?: boolean }): Pick<SynthesisRequest, 'ssmlOptions'> {
  if (body.ssml_dialect === undefined && body.lenient === undefined) return {};
  return { ssmlOptions: { ...(body.ssml_dialect ? { dialect: body.ssml_dialect } : {}), ...(body.lenient !== undefined ? { lenient: body.lenient } : {}) } };
}
/** JSON with every non-ASCII character escaped: header values must be Latin-1, and SSML warnings quote the document (“…”, 中文). */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
// ---- end issue 26 ----

const speechSchema = z.object({
  model: z.string().max(200).optional(),
  input: z.string().min(1, 'input must not be empty').max(1_048_576),
  voice: z.string().min(1).max(64),
  response_format: z.enum(['wav', 'pcm']).default('wav'),
  speed: z.number().min(0.25).max(4).default(1),
  stream: z.boolean().default(false),
  instructions: z.string().max(4096).optional(),
  seed: z.number().int().min(0).max(2 ** 32 - 1).optional(),
  language: z.string().max(64).optional(),
  ...ssmlHttpFields,
  // issue 26 extension: SSML input on the OpenAI shape
  input_format: z.enum(['text', 'ssml']).default('text'),
});

const ttsSchema = z.object({
  text: z.string().max(1_048_576).optional(),
  ssml: z.union([z.string().max(1_048_576), z.boolean()]).optional(),
  voice: z.string().min(1).max(64),
  emotion: z.string().max(4096).optional(),
  seed: z.number().int().min(0).max(2 ** 32 - 1).optional(),
  language: z.string().max(64).optional(),
  stream: z.boolean().optional(),
  ...ssmlHttpFields,
});

export interface HttpApiOptions {
  runtime: StudioRuntime;
  bearerToken?: string;
  log: (m: string) => void;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function sendError(res: ServerResponse, err: unknown): void {
  const e = toStudioError(err);
  const headers: Record<string, string> = e.code === 'busy' ? { 'retry-after': String(e.details.retryAfterS ?? 1) } : {};
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, httpStatusForError(e.code), { error: e.toJSON() }, headers);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let numBytes = 0;
  for await (const chunk of req) {
    numBytes += (chunk as Buffer).length;
    if (numBytes > MAX_BODY_BYTES) {
      throw new StudioError('input-too-long', `request body exceeds ${MAX_BODY_BYTES} bytes; send shorter input or split it`, { limitBytes: MAX_BODY_BYTES });
    }
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new StudioError('invalid-argument', 'request body is not valid JSON', { field: '(body)' });
  }
}

function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new StudioError('invalid-argument', `invalid request: ${describeIssues(parsed.error.issues)}`, {
      fields: parsed.error.issues.slice(0, 5).map((i) => i.path.join('.') || '(body)'),
    });
  }
  return parsed.data;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);
}

export function speechToRequest(body: z.infer<typeof speechSchema>): SynthesisRequest {
  const speedChanged = Math.abs(body.speed - 1) > 1e-9;
  // issue 26: SSML input carries its own rate; speed would have to be merged into the document
  if (body.input_format === 'ssml' && speedChanged) {
    throw new StudioError('invalid-argument', 'speed cannot be combined with input_format "ssml"; set the rate in the document with <prosody rate="…">', { field: 'speed' });
  }
  const isSsml = body.input_format === 'ssml' || speedChanged;
  return {
    requestId: `http-${randomUUID()}`,
    input: speedChanged ? `<speak><prosody rate="${body.speed}">${escapeXml(body.input)}</prosody></speak>` : body.input,
    inputFormat: isSsml ? 'ssml' : 'text',
    ...(body.input_format === 'ssml' ? ssmlOptionsFromBody(body) : {}),
    voice: body.voice.toLowerCase(),
    language: body.language ?? 'auto',
    seed: body.seed ?? 42,
    instruct: body.instructions,
    priority: 'interactive',
    stream: body.stream,
  };
}

export function ttsToRequest(body: z.infer<typeof ttsSchema>): SynthesisRequest {
  const ssmlText = typeof body.ssml === 'string' ? body.ssml : null;
  const input = ssmlText ?? body.text ?? '';
  if (input.trim() === '') {
    throw new StudioError('invalid-argument', 'text is empty: send {"text": "..."} or {"ssml": "<speak>...</speak>"}', { field: 'text' });
  }
  return {
    requestId: `http-${randomUUID()}`,
    input,
    inputFormat: ssmlText !== null || body.ssml === true ? 'ssml' : 'text',
    voice: body.voice.toLowerCase(),
    language: body.language ?? 'auto',
    seed: body.seed ?? 42,
    instruct: body.emotion,
    priority: 'bulk',
    stream: body.stream,
    ...ssmlOptionsFromBody(body), // issue 26
  };
}

export function createHttpApi(options: HttpApiOptions) {
  const { runtime } = options;

  function authorised(req: IncomingMessage): boolean {
    if (!options.bearerToken) return true;
    const header = req.headers.authorization ?? '';
    const given = Buffer.from(header.replace(/^Bearer\s+/i, ''));
    const want = Buffer.from(options.bearerToken);
    return given.length === want.length && timingSafeEqual(given, want);
  }

  /** Runs one request; streams PCM as it is produced when asked, else answers with the whole file. */
  async function synthesize(req: IncomingMessage, res: ServerResponse, request: SynthesisRequest, format: 'wav' | 'pcm'): Promise<void> {
    let finished = false;
    res.on('close', () => {
      if (!finished) void runtime.host.call('cancel', { requestId: request.requestId }).catch(() => {});
    });
    const streaming = request.stream === true;
    let streamStarted = false;
    const ctx = {
      callerId: `http-${request.requestId}`,
      emit: (event: string, payload: unknown) => {
        if (!streaming || event !== EVENTS.onDidProduceAudio) return;
        const chunk = payload as AudioChunk;
        if (!streamStarted) {
          streamStarted = true;
          res.writeHead(200, { 'content-type': format === 'wav' ? 'audio/wav' : 'audio/pcm', 'x-request-id': request.requestId, 'x-sample-rate': String(chunk.sampleRateHz) });
          if (format === 'wav') res.write(encodeWavStreamHeader(chunk.sampleRateHz));
        }
        res.write(pcm16Bytes(chunk.pcm));
      },
    };
    const reply = await runtime.dispatcher.dispatch('studio:tts.synthesize', request, ctx);
    finished = true;
    if (!reply.ok) {
      if (streamStarted) res.destroy();
      else sendError(res, reply.error);
      return;
    }
    const result = reply.value as SynthesisResult;
    if (streaming) {
      if (!streamStarted) {
        res.writeHead(200, { 'content-type': format === 'wav' ? 'audio/wav' : 'audio/pcm', 'x-request-id': request.requestId });
        if (format === 'wav') res.write(encodeWavStreamHeader(result.sampleRateHz));
        res.write(pcm16Bytes(result.pcm));
      }
      res.end();
      return;
    }
    const body = format === 'wav' ? encodeWavBytes(result.pcm, result.sampleRateHz, 'pcm16') : pcm16Bytes(result.pcm);
    res.writeHead(200, {
      'content-type': format === 'wav' ? 'audio/wav' : 'audio/pcm',
      'content-length': body.byteLength,
      'x-request-id': request.requestId,
      'x-sample-rate': String(result.sampleRateHz),
      'x-studio-timings': JSON.stringify(result.timings),
      ...(result.warnings.length > 0 ? { 'x-studio-warnings': asciiJson(result.warnings).slice(0, 2000) } : {}),
    });
    res.end(body);
  }

  async function route(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean> {
    const method = req.method ?? 'GET';
    if (method === 'GET' && pathname === '/status') {
      sendJson(res, 200, await runtime.host.call('status', {}));
      return true;
    }
    if (method === 'GET' && pathname === '/readyz') {
      const ready = runtime.host.currentState === 'ready';
      sendJson(res, ready ? 200 : 503, { ready, state: runtime.host.currentState });
      return true;
    }
    if (method === 'GET' && pathname === '/v1/models') {
      const info = await runtime.host.call('modelInfo', {});
      sendJson(res, 200, { object: 'list', data: info ? [{ id: info.id, object: 'model', owned_by: 'local', synthetic: info.synthetic }] : [] });
      return true;
    }
    if (method === 'GET' && pathname === '/v1/voices') {
      sendJson(res, 200, { voices: await runtime.host.call('listVoices', {}) });
      return true;
    }
    if (method === 'POST' && pathname === '/v1/audio/speech') {
      const body = parseBody(speechSchema, await readJson(req));
      await synthesize(req, res, speechToRequest(body), body.response_format);
      return true;
    }
    if (method === 'POST' && pathname === '/api/v1/tts') {
      const body = parseBody(ttsSchema, await readJson(req));
      await synthesize(req, res, ttsToRequest(body), 'wav');
      return true;
    }
    return false;
  }

  return {
    /** Returns false when the path is not an API route. */
    async handle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
      const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
      const isApi = pathname === '/status' || pathname === '/readyz' || pathname.startsWith('/v1/') || pathname.startsWith('/api/');
      if (!isApi) return false;
      if (!authorised(req)) {
        sendJson(res, 401, { error: { code: 'unauthorized', message: 'missing or wrong bearer token; send Authorization: Bearer <token>', details: {} } });
        return true;
      }
      try {
        if (await route(req, res, pathname)) return true;
        sendJson(res, 404, { error: { code: 'not-found', message: `no API route ${req.method} ${pathname}`, details: {} } });
      } catch (err) {
        sendError(res, err);
      }
      return true;
    },
    dispose(): void {},
  };
}
