/**
 * `studio serve`: the headless host — the same services as the app, the built UI over HTTP,
 * the contract over a WebSocket and the HTTP API, on loopback unless --host says otherwise.
 * Ctrl+C drains (readyz 503, no new work, in-flight responses finish), then exits; a second
 * Ctrl+C exits at once.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { createStudioStack } from '../app/studio-stack';
import { rendererDir } from '../platform/paths';
import { startHeadlessServer, type HeadlessServer } from '../headless/headless-server';
import { parseIntFlag } from './cli-errors';
import { addEngineFlags, engineOverridesFromFlags } from './engine-options';
import { stopOnSignals } from './stop-on-signals';
import { engineDevicesFor } from '../engine-client/engine-devices';
import { STUDIO_VERSION } from '../../src-shared/version';
import { StudioError } from '../../src-shared/errors';
import { defaultOpenAiVoiceMap, parseVoiceMap } from '../api/openai-voices';

export interface ServeOptions {
  port: string;
  host: string;
  token?: string;
  model?: string;
  provider?: string;
  engineConfig?: string;
  devices?: string;
  drainMs: string;
  allowHost?: string[];
  openaiVoiceMap?: string;
}

/** The default OpenAI voice map, with the user's file (--openai-voice-map) laid over it. */
function voiceMapFrom(file: string | undefined): Record<string, string[]> {
  if (!file) return defaultOpenAiVoiceMap();
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new StudioError('invalid-argument', `--openai-voice-map ${file} cannot be read as JSON (${(err as Error).message}); give a file like {"alloy": "ryan"}`, { field: 'openai-voice-map' });
  }
  return { ...defaultOpenAiVoiceMap(), ...parseVoiceMap(json) };
}

/**
 * What `studio serve` prints at start: only URLs that work as printed — the sign-in link (one
 * browser per link; a new one is logged after each use) and the API base — and how programs
 * authenticate. The bare address is not printed as a link: without a session it only shows the sign-in page.
 */
export function startupLines(server: Pick<HeadlessServer, 'url' | 'uiUrl' | 'token'>, options: { userToken?: string; uiBuilt: boolean }): string[] {
  const where = new URL(server.url).host;
  const lines = [`Qwen3-TTS Studio (headless) listening on ${where}${options.uiBuilt ? '' : ' (UI not built: run npm run build)'}`];
  lines.push(`Open the studio at ${server.uiUrl}  (a sign-in link for one browser; a new one is printed here after each use)`);
  if (options.userToken !== undefined) {
    lines.push(`HTTP API: OpenAI base_url ${server.url}/v1 (POST /v1/audio/speech, GET /v1/models), with the header Authorization: Bearer <your --token>`);
  } else {
    lines.push(`HTTP API: OpenAI base_url ${server.url}/v1 (POST /v1/audio/speech, GET /v1/models); no token needed from this machine`);
    lines.push(`WebSocket clients: send Authorization: Bearer ${server.token}`);
  }
  return lines;
}

/** A server's clients come many at once: workload 'server' lets the plan's 'auto' counts run wide where the provider and memory allow; the flags win. */
export function serveEngineOverrides(opts: Pick<ServeOptions, 'provider' | 'engineConfig'>): Record<string, unknown> {
  return { workload: 'server', ...engineOverridesFromFlags(opts) };
}

export async function runServe(opts: ServeOptions): Promise<void> {
  const port = parseIntFlag('port', opts.port, 0, 65535);
  const drainMs = parseIntFlag('drain-ms', opts.drainMs, 0, 600_000);
  const engineConfig = serveEngineOverrides(opts);
  const voiceMap = voiceMapFrom(opts.openaiVoiceMap);
  const devices = engineDevicesFor(opts.devices, String(engineConfig.provider ?? 'auto'), engineConfig);
  const stack = createStudioStack({ hostKind: 'headless', version: STUDIO_VERSION, model: opts.model, engineConfig, devices });
  const uiDir = rendererDir();
  const server = await startHeadlessServer({
    stack,
    port,
    hostname: opts.host,
    rendererDir: uiDir,
    bearerToken: opts.token ?? process.env.STUDIO_TOKEN,
    allowHosts: opts.allowHost,
    voiceMap,
  });
  for (const line of startupLines(server, { userToken: opts.token ?? process.env.STUDIO_TOKEN, uiBuilt: uiDir !== null })) console.log(line);
  stack.host.start().then(
    () => console.log(`engine ready: ${stack.host.lastKnownStatus?.model?.displayName ?? 'model loaded'} on ${stack.host.lastKnownStatus?.provider ?? '?'}${stack.host.size > 1 ? ` (${stack.host.size} engines: ${stack.host.labels.join(', ')})` : ''}`),
    (err: Error) => console.error(`engine failed to start: ${err.message}`),
  );
  stopOnSignals(
    (signal) => `${signal}: draining ${server.numInFlight} request(s) (up to ${drainMs} ms)`,
    async () => {
      const { numUnfinished } = await server.drain(drainMs);
      if (numUnfinished > 0) console.log(`${numUnfinished} response(s) did not finish within ${drainMs} ms`);
      await server.close();
      await stack.dispose();
    },
  );
  await new Promise<never>(() => {}); // runs until a signal drains and exits
}

export function registerServe(program: Command): void {
  const serve = program
    .command('serve')
    .description('run the headless host: the studio UI in a browser, the HTTP API and the WebSocket bridge')
    .option('--port <n>', 'TCP port (0 picks a free one)', '7860')
    .option('--host <address>', 'address to bind; anything but loopback needs --token', '127.0.0.1')
    .option('--token <token>', 'bearer token required by the HTTP API (or STUDIO_TOKEN)');
  addEngineFlags(serve)
    .option('--drain-ms <ms>', 'on shutdown, how long in-flight requests may finish', '10000')
    .option('--allow-host <name...>', 'more Host names to accept (a DNS name of this machine); loopback names and the bound address always are')
    .option('--openai-voice-map <file>', 'JSON file mapping OpenAI voice names to speakers, e.g. {"alloy": "ryan"}')
    .action(runServe);
}
