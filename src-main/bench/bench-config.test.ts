// Unit tests for the bench config defaults, validation and the CLI option mapping.
import { describe, expect, it } from 'vitest';
import { thrown } from '../../src-shared/testing/thrown';
import { benchConfigFromCliOptions } from './bench-cli-options';
import { defaultBenchConfig, resolveBenchConfig } from './bench-config';

const variant = { name: 'v', createTarget: () => ({ name: 'fake', synthesize: async () => ({ bytes: new Uint8Array(), firstByteMs: null, status: 200, audioDurationMs: null }), dispose() {} }) };

describe('defaultBenchConfig', () => {
  it('follows the protocol defaults', () => {
    const d = defaultBenchConfig();
    expect(d).toMatchObject({ mode: 'closed', workloads: ['plain', 'processed'], clientCounts: [4, 8], windowMs: 90_000, numPasses: 2, warmupSeed: 9001, goldenSeed: 42, statusIntervalMs: 50, gpuIntervalMs: 250, stream: false });
    expect(d.ramp.clientCounts).toEqual([1, 2, 3, 4, 5, 10, 20, 30, 50, 100]);
  });
});

describe('resolveBenchConfig', () => {
  it('returns a frozen config with overrides applied', () => {
    const c = resolveBenchConfig({ variants: [variant], windowMs: 2000, open: { ratePerS: 3 } });
    expect(Object.isFrozen(c)).toBe(true);
    expect(c.windowMs).toBe(2000);
    expect(c.open).toEqual({ ...defaultBenchConfig().open, ratePerS: 3 });
  });

  it('rejects unknown keys naming the key path', () => {
    const e = thrown(() => resolveBenchConfig({ variants: [variant], open: { rate: 3 } } as never));
    expect(e.code).toBe('invalid-argument');
    expect(e.message).toContain('open.rate');
    expect(thrown(() => resolveBenchConfig({ variants: [variant], windowSeconds: 3 } as never)).message).toContain('windowSeconds');
  });

  it('rejects bad values with the path and the number', () => {
    expect(thrown(() => resolveBenchConfig({ variants: [variant], clientCounts: [4, 0] })).message).toContain('clientCounts[1]');
    expect(thrown(() => resolveBenchConfig({ variants: [variant], workloads: ['poetry'] })).message).toContain('"poetry" is unknown');
    expect(thrown(() => resolveBenchConfig({})).message).toContain('variants');
    expect(thrown(() => resolveBenchConfig({ variants: [variant, { ...variant }] })).message).toContain('used twice');
  });
});

describe('benchConfigFromCliOptions', () => {
  it('maps the flags to a config and output folder', () => {
    const { config, outDir } = benchConfigFromCliOptions({ target: 'http', url: 'http://127.0.0.1:9000,http://localhost:9001', workloads: 'plain', clients: '1,2,4', window: '20', passes: '1', mode: 'open', rate: '2.5', slo: '8', out: '/tmp/x' });
    expect(config.variants.map((v) => v.name)).toEqual(['before', 'after']);
    expect(config).toMatchObject({ mode: 'open', workloads: ['plain'], clientCounts: [1, 2, 4], windowMs: 20_000, numPasses: 1 });
    expect(config.open.ratePerS).toBe(2.5);
    expect(config.open.latencyObjectiveMs).toBe(8000);
    expect(outDir).toBe('/tmp/x');
  });

  it('refuses a non-loopback URL unless --allow-remote is given', () => {
    const e = thrown(() => benchConfigFromCliOptions({ target: 'http', url: 'http://10.1.2.3:8080' }));
    expect(e.code).toBe('invalid-argument');
    expect(e.message).toContain('allowRemote');
    expect(e.message).toContain('--allow-remote');
    expect(benchConfigFromCliOptions({ target: 'http', url: 'http://10.1.2.3:8080', allowRemote: true }).config.variants).toHaveLength(1);
  });

  it('looks up inproc variants from the supplied factories and rejects unknown flags', () => {
    const { config } = benchConfigFromCliOptions({ target: 'inproc', variants: 'serial,batched' }, { inprocVariants: { serial: () => ({ ...variant, name: 'serial' }), batched: () => ({ ...variant, name: 'batched' }) } });
    expect(config.variants.map((v) => v.name)).toEqual(['serial', 'batched']);
    expect(thrown(() => benchConfigFromCliOptions({ target: 'inproc', variants: 'fast' }, { inprocVariants: {} })).message).toContain('"fast" is not an inproc variant');
    expect(thrown(() => benchConfigFromCliOptions({ url: 'http://127.0.0.1:1', api: 'openai' })).message).toContain('no SSML');
    expect(benchConfigFromCliOptions({ url: 'http://127.0.0.1:1', api: 'openai', workloads: 'plain' }).config.workloads).toEqual(['plain']);
    expect(thrown(() => benchConfigFromCliOptions({ clientz: '4' } as never)).message).toContain('--clientz');
    expect(thrown(() => benchConfigFromCliOptions({ url: 'http://127.0.0.1:1', clients: '4,x' })).message).toContain('--clients');
  });
});
