/**
 * `studio serve` asks the engine plan for a server's concurrency (workload 'server'), and the user's
 * --engine-config still wins over it.
 */
import { describe, expect, it } from 'vitest';
import { serveEngineOverrides } from './serve-command';

describe('serve engine overrides', () => {
  it("sets workload 'server' unless the engine config names another, and keeps the provider flag", () => {
    expect(serveEngineOverrides({})).toEqual({ workload: 'server' });
    expect(serveEngineOverrides({ provider: 'webgpu', engineConfig: '{"maxRunningSequences":8}' })).toEqual({ workload: 'server', maxRunningSequences: 8, provider: 'webgpu' });
    expect(serveEngineOverrides({ engineConfig: '{"workload":"interactive"}' })).toMatchObject({ workload: 'interactive' });
  });
});
