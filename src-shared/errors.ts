/**
 * The studio's one error type and its closed set of codes.
 * Every layer throws StudioError; across IPC, WebSocket and HTTP it travels as
 * SerializedStudioError `{ code, message, details }` and is rebuilt on the other side.
 * Types and constants only: no Node or DOM imports.
 */

export const ERROR_CODES = [
  'invalid-argument', // a field has a bad value; details name the field and the valid values
  'unknown-channel', // an IPC/WebSocket call named a channel that is not in the contract
  'model-missing',
  'model-invalid',
  'input-too-long',
  'ssml-invalid',
  'cancelled',
  'busy', // admission control rejected the request (HTTP 429)
  'timeout',
  'engine-crashed',
  'device-lost',
  'out-of-memory',
  'not-found',
  'unauthorized',
  'forbidden', // the caller may not use this resource (a path outside its grants, an admin channel); HTTP 403
  'unavailable', // the engine is restarting, switching models or shutting down; retry later (HTTP 503)
  'payload-too-large', // a body or upload over its byte limit (HTTP 413)
  'unsupported-media-type', // a body that is not in the format the route takes, e.g. JSON (HTTP 415)
  'method-not-allowed', // an HTTP route called with a method it does not have (HTTP 405 + Allow)
  'network',
  'checksum-mismatch',
  'disk-full',
  'unsupported',
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export type ErrorDetails = Record<string, string | number | boolean | null | readonly (string | number)[]>;

export interface SerializedStudioError {
  code: ErrorCode;
  message: string;
  details: ErrorDetails;
}

export class StudioError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;

  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}) {
    super(message);
    this.name = 'StudioError';
    this.code = code;
    this.details = details;
  }

  toJSON(): SerializedStudioError {
    return { code: this.code, message: this.message, details: this.details };
  }

  static fromSerialized(e: SerializedStudioError): StudioError {
    return new StudioError(e.code, e.message, e.details);
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/** Wraps anything thrown into a StudioError; unknown errors become 'internal' with the original message. */
export function toStudioError(err: unknown): StudioError {
  if (err instanceof StudioError) return err;
  if (err && typeof err === 'object' && 'code' in err && 'message' in err && isErrorCode((err as { code: unknown }).code)) {
    const e = err as SerializedStudioError;
    return new StudioError(e.code, String(e.message), e.details ?? {});
  }
  const message = err instanceof Error ? err.message : String(err);
  return new StudioError('internal', message);
}

/** HTTP status for each code, used by the headless host's API. */
export function httpStatusForError(code: ErrorCode): number {
  switch (code) {
    case 'invalid-argument':
    case 'ssml-invalid':
    case 'input-too-long':
    case 'unknown-channel':
      return 400;
    case 'unauthorized':
      return 401;
    case 'forbidden':
      return 403;
    case 'payload-too-large':
      return 413;
    case 'unsupported-media-type':
      return 415;
    case 'method-not-allowed':
      return 405;
    case 'unavailable':
      return 503;
    case 'not-found':
    case 'model-missing':
      return 404;
    case 'busy':
      return 429;
    case 'cancelled':
      return 499;
    case 'timeout':
      return 504;
    case 'unsupported':
      return 501;
    case 'engine-crashed':
    case 'device-lost':
    case 'out-of-memory':
    case 'model-invalid':
    case 'network':
    case 'checksum-mismatch':
    case 'disk-full':
    case 'internal':
      return 500;
  }
}
