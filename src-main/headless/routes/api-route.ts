/**
 * What the HTTP API's route modules share: a route (an anchored path pattern and a handler per
 * method; HEAD runs GET), the options every module is built over (the stack, the server's
 * lifecycle, the OpenAI voice map, the log), and the 503 + Retry-After a new request gets while the
 * server drains. createHttpApi (../http-api.ts) registers the modules' routes in one table.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StudioError } from '../../../src-shared/errors';
import type { StudioStack } from '../../app/studio-stack';

/** What the API needs to know of the server's lifecycle. */
export interface ApiLifecycle {
  readonly draining: boolean;
  /** Counts a response as in flight until it has been fully written or its client went away. */
  track(res: ServerResponse): void;
}

export interface HttpApiOptions {
  stack: StudioStack;
  lifecycle: ApiLifecycle;
  voiceMap: Record<string, string[]>;
  log: (m: string) => void;
}

/** `params`: the pattern's capture groups, in order. */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse, params: string[]) => Promise<void>;

export interface Route {
  pattern: RegExp;
  methods: { GET?: RouteHandler; POST?: RouteHandler };
}

export function refuseWhileDraining(lifecycle: ApiLifecycle): void {
  if (lifecycle.draining) throw new StudioError('unavailable', 'the studio is shutting down and takes no new requests; retry on the restarted host', { retryAfterS: 5 });
}
