/**
 * Test harness: the headless server on a loopback port over a real engine host with the tiny
 * synthetic model (short sequences keep suites fast), plus small request helpers.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createStudioStack, type StudioStack } from '../../app/studio-stack';
import { startHeadlessServer, type HeadlessServer, type HeadlessServerOptions } from '../headless-server';

// Frames cap = 6 + 1 per text token.
export const TINY_ENGINE = { minFramesCap: 6, framesPerTextToken: 1, maxRunningSequences: 16, maxPrefillSequences: 16 };

export interface Served {
  stack: StudioStack;
  server: HeadlessServer;
  logs: string[];
  dispose(): Promise<void>;
}

export async function serveTiny(
  modelDir: string,
  options: { schedulerConfig?: Record<string, unknown>; engineConfig?: Record<string, unknown>; server?: Partial<HeadlessServerOptions> } = {},
): Promise<Served> {
  const logs: string[] = [];
  const stack = createStudioStack({
    hostKind: 'headless',
    version: 'test',
    model: modelDir,
    userDataDir: mkdtempSync(path.join(os.tmpdir(), 'studio-http-')),
    engineConfig: { ...TINY_ENGINE, ...options.engineConfig },
    schedulerConfig: options.schedulerConfig ?? {},
    log: (m) => logs.push(m),
  });
  await stack.host.start();
  const server = await startHeadlessServer({ stack, port: 0, hostname: '127.0.0.1', rendererDir: null, log: (m) => logs.push(m), ...options.server });
  return {
    stack,
    server,
    logs,
    dispose: async () => {
      await server.close();
      await stack.dispose();
    },
  };
}

export const JSON_HEADERS = { 'content-type': 'application/json' };

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; bytes: Uint8Array; headers: Headers; json: () => unknown }> {
  const res = await fetch(url, { method: 'POST', body: JSON.stringify(body), headers: { ...JSON_HEADERS, ...headers } });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, bytes, headers: res.headers, json: () => JSON.parse(new TextDecoder().decode(bytes)) };
}
