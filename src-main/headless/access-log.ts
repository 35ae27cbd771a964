/**
 * The headless server's access-log line, one per request when its response closes. A response that
 * never started says why, with the status the client got: a body the client stopped sending is 400
 * (408 once the server's request timeout cut it), a client gone before the answer 499; never 200.
 */

export interface AccessLogFacts {
  requestId: string;
  method: string;
  path: string;
  statusCode: number;
  headersSent: boolean;
  /** The response was written whole. */
  finished: boolean;
  /** The request, body included, arrived whole. */
  requestComplete: boolean;
  elapsedMs: number;
  /** The server's request timeout (Node answers 408 itself past it); 0: none. */
  requestTimeoutMs: number;
}

/** The status the client got and a note for a response that did not go out whole. */
export function accessOutcome(f: AccessLogFacts): { status: number; note: string } {
  if (f.headersSent) return { status: f.statusCode, note: f.finished ? '' : ' (connection closed early)' };
  if (f.requestComplete) return { status: 499, note: ' (client-aborted: the client closed the connection before the answer)' };
  if (f.requestTimeoutMs > 0 && f.elapsedMs >= f.requestTimeoutMs) return { status: 408, note: ` (client-aborted: the body was not complete after ${f.requestTimeoutMs} ms)` };
  return { status: 400, note: ' (client-aborted: the client stopped sending the body it declared)' };
}

export function accessLogLine(f: AccessLogFacts): string {
  const { status, note } = accessOutcome(f);
  return `[http] ${f.requestId} ${f.method} ${f.path} ${status} ${Math.round(f.elapsedMs)} ms${note}`;
}
