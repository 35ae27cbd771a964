/**
 * The headless host's HTTP API: the route modules of routes/ (health and status, models, voices,
 * synthesis over the one voice lookup) in one table. Access (Host, Origin, token) is decided by the
 * server before a route runs; here: 404 for a path no route has, 405 + Allow for a method it lacks
 * (HEAD runs GET), every failure as a JSON error body (http-errors.ts), and a log line for each 5xx.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StudioError, toStudioError } from '../../src-shared/errors';
import { sendError } from './http-errors';
import type { HttpApiOptions, Route } from './routes/api-route';
import { createHealthRoutes } from './routes/health-routes';
import { createModelRoutes } from './routes/model-routes';
import { createSynthesisRoutes } from './routes/synthesis-routes';
import { createVoiceLookup } from './routes/voice-lookup';
import { createVoiceRoutes } from './routes/voice-routes';

export function createHttpApi(options: HttpApiOptions) {
  const routes: Route[] = [
    ...createHealthRoutes(options),
    ...createModelRoutes(options),
    ...createVoiceRoutes(options),
    ...createSynthesisRoutes(options, createVoiceLookup(options.stack, options.voiceMap)),
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
