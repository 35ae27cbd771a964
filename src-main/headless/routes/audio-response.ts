/**
 * Runs one synthesis request through the dispatcher and answers with its audio: a whole file (with
 * x-studio-timings and x-studio-warnings), a raw stream, or server-sent events. A client that goes
 * away cancels the request; a failure before the first byte is thrown for createHttpApi to answer,
 * one after it ends the stream (an SSE error event, or a closed socket).
 */
import type { ServerResponse } from 'node:http';
import { StudioError } from '../../../src-shared/errors';
import { EVENTS } from '../../../src-shared/ipc-contract';
import type { AudioChunk, SynthesisRequest, SynthesisResult } from '../../../src-shared/synthesis';
import { contentTypeFor, type AudioFormat } from '../../../src-shared/audio-format';
import { timeStretch } from '../../audio/time-stretch';
import { createAudioEncodeStream, encodeAudio, type AudioEncodeStream } from '../../audio/encode-audio';
import { clientIdOf } from '../../access/access-policy';
import { refuseWhileDraining, type HttpApiOptions } from './api-route';
import type { ResolvedVoice } from './voice-lookup';

/** How the audio goes out: the encoding, a time-stretch factor (1: none) and whether as server-sent events. */
export interface AudioAnswer {
  format: AudioFormat;
  speed: number;
  sse: boolean;
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

function sseEvent(payload: unknown): string {
  return `data: ${JSON.stringify(payload)}\n\n`;
}

/** `savedVoices`: the voice library as the voice lookup read it for this request (the services attach from it). */
export async function sendSynthesizedAudio(
  { stack, lifecycle, log }: Pick<HttpApiOptions, 'stack' | 'lifecycle' | 'log'>,
  res: ServerResponse,
  request: SynthesisRequest,
  savedVoices: ResolvedVoice['savedVoices'],
  answer: AudioAnswer,
): Promise<void> {
  refuseWhileDraining(lifecycle);
  lifecycle.track(res);
  let finished = false;
  // Chunks go out as produced only where the bytes do not depend on the whole clip (speed stretches the whole).
  const streamChunks = request.stream === true && answer.speed === 1;
  const out: { encoder: AudioEncodeStream | null; failure: Error | null } = { encoder: null, failure: null };
  res.on('close', () => {
    if (finished) return;
    void stack.host.call('cancel', { requestId: request.requestId }).catch(() => {});
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
    savedVoices,
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
  const reply = await stack.dispatcher.dispatch('studio:tts.synthesize', request, ctx);
  finished = true;
  if (!reply.ok) {
    void out.encoder?.cancel();
    if (started && answer.sse) {
      log(`[http] ${request.requestId} failed mid-stream: ${reply.error.code}: ${reply.error.message}`);
      res.end(sseEvent({ type: 'error', error: { message: reply.error.message, code: reply.error.code } }));
      return;
    }
    throw StudioError.fromSerialized(reply.error); // before any byte went out: createHttpApi answers and logs it
  }
  const result = reply.value as SynthesisResult;
  const pcm = answer.speed === 1 ? result.pcm : timeStretch(result.pcm, result.sampleRateHz, answer.speed);
  const usage = { input_tokens: result.timings.numPromptTokens, output_tokens: result.timings.numFrames, total_tokens: result.timings.numPromptTokens + result.timings.numFrames };
  if (request.stream) {
    if (out.encoder) await out.encoder.end().catch((err: Error) => (out.failure ??= err));
    if (out.failure) {
      log(`[http] ${request.requestId} encoder failed mid-stream: ${out.failure.message}`);
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
