/**
 * Entry point of the engine host process (Electron utilityProcess or Node child). It owns the
 * engine, scheduler and DSP, answers protocol calls and streams events to its parent. run() of
 * onnxruntime blocks this process's thread, never the studio's main thread. Its code lives in
 * engine-host/; the supervisor that starts it is engine-client/, and the messages are engine-protocol/.
 */
import { toStudioError } from '../src-shared/errors';
import { createHostTransport } from './engine-host/host-transport';
import { createSynthesisService, type SynthesisService } from './engine-host/synthesis-service';
import type { HostMethod, HostStartOptions, MainToHost } from './engine-protocol/protocol';

async function main(): Promise<void> {
  // A terminal's Ctrl+C reaches the whole process group; the parent drains and then ends this
  // process, so SIGINT here would only drop in-flight work and trigger a needless restart.
  process.on('SIGINT', () => {});
  const transport = createHostTransport();
  const options = JSON.parse(process.argv[2] ?? '{}') as HostStartOptions;
  const emit = (event: string, payload: unknown): void => transport.post({ kind: 'event', event, payload });
  let service: SynthesisService;
  try {
    // A lost device (a sticky CUDA error) leaves nothing usable in this process: exit, and the supervisor
    // (host-client.ts) fails what is in flight and starts a fresh host.
    service = await createSynthesisService(options, emit, undefined, (error) => {
      transport.post({ kind: 'fatal', error: error.toJSON() });
      setTimeout(() => process.exit(1), 50);
    });
  } catch (err) {
    transport.post({ kind: 'fatal', error: toStudioError(err).toJSON() });
    setTimeout(() => process.exit(1), 50);
    return;
  }
  const handle = async (m: MainToHost): Promise<void> => {
    try {
      const value = await service.call(m.method as HostMethod, m.args);
      transport.post({ kind: 'reply', id: m.id, ok: true, value });
    } catch (err) {
      transport.post({ kind: 'reply', id: m.id, ok: false, error: toStudioError(err).toJSON() });
    }
  };
  transport.onMessage((m) => {
    if (m.kind !== 'call') return;
    // before any work: a host that dies now was never given the request (engine-pool.ts retries it elsewhere)
    if (m.method === 'synthesize') transport.post({ kind: 'accepted', id: m.id });
    void handle(m);
  });
  transport.onParentGone(() => {
    void service.dispose().finally(() => process.exit(0));
  });
  transport.post({ kind: 'ready', status: service.status() });
}

void main();
