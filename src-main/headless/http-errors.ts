/**
 * How the headless host's HTTP API answers a failure: the status for each StudioError code (503 +
 * Retry-After while the engine restarts, switches model or shuts down; 413, 415, 405 + Allow), and
 * one body shape that is both ours ({code, message, details}) and OpenAI's ({message, type, param, code}).
 */
import type { ServerResponse } from 'node:http';
import { StudioError, httpStatusForError, toStudioError } from '../../src-shared/errors';

/** Seconds a client should wait before retrying a request the engine could not take now. */
export const RETRY_AFTER_UNAVAILABLE_S = 2;

/** The HTTP status of an error met while answering a request (not the generic code table: a cancel here is never the client's). */
export function httpStatusOf(error: StudioError): number {
  switch (error.code) {
    case 'engine-crashed':
    case 'unavailable':
    case 'device-lost':
      return 503;
    // The client that asked is still connected, so a cancel came from the server (model switch, shutdown).
    case 'cancelled':
      return 503;
    default:
      return httpStatusForError(error.code);
  }
}

function openAiType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

/** The error body: our fields plus OpenAI's `type` and `param`, so both kinds of client read it. */
export function errorBody(error: StudioError, status: number): { error: Record<string, unknown> } {
  const field = error.details.field ?? (Array.isArray(error.details.fields) ? error.details.fields[0] : null);
  return {
    error: { message: error.message, type: openAiType(status), param: typeof field === 'string' ? field : null, code: error.code, details: error.details },
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

/** Answers with the error; when the response has already started (a stream), the connection is cut instead. */
export function sendError(res: ServerResponse, err: unknown, extraHeaders: Record<string, string> = {}): number {
  const e = toStudioError(err);
  const status = httpStatusOf(e);
  if (res.headersSent) {
    res.destroy();
    return status;
  }
  const headers: Record<string, string> = { ...extraHeaders };
  if (status === 429) headers['retry-after'] = String(e.details.retryAfterS ?? 1);
  if (status === 503) headers['retry-after'] = String(e.details.retryAfterS ?? RETRY_AFTER_UNAVAILABLE_S);
  sendJson(res, status, errorBody(e, status), headers);
  return status;
}
