/**
 * Test harness: a real Redis (Debian's redis-server) on loopback, on a free port, with its data
 * (append-only file) in a temporary folder; it can be stopped and started again on the same port
 * and data, as a Redis restart. Tests skip loudly when the binary is absent.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const REDIS_BINARY = process.env.REDIS_SERVER ?? 'redis-server';

export function redisAvailable(): boolean {
  return spawnSync(REDIS_BINARY, ['--version'], { stdio: 'ignore' }).status === 0;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const started = Date.now();
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => (socket.end(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() - started > timeoutMs) throw new Error(`redis-server did not listen on ${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export class TestRedis {
  private proc: ChildProcess | null = null;
  readonly dataDir = mkdtempSync(path.join(os.tmpdir(), 'studio-redis-'));

  private constructor(readonly port: number) {}

  static async start(): Promise<TestRedis> {
    const redis = new TestRedis(await freePort());
    await redis.startProcess();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  private async startProcess(): Promise<void> {
    this.proc = spawn(REDIS_BINARY, ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dataDir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', '', '--protected-mode', 'yes'], { stdio: 'ignore' });
    await waitForPort(this.port, 10_000);
  }

  /** Stops Redis (SIGTERM: it flushes its append-only file) and waits for the exit. */
  async stop(): Promise<void> {
    const proc = this.proc;
    this.proc = null;
    if (!proc || proc.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill('SIGTERM');
    });
  }

  /** A restart on the same port and data. */
  async restart(): Promise<void> {
    await this.stop();
    await this.startProcess();
  }

  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
