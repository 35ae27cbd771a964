/**
 * Tells the user when long work finishes while the studio window is in the background: a render
 * (synthesize call) of at least minRenderMs, or a benchmark run. Fed by the IPC layer's call and
 * event observers; shows nothing while the window has focus. Pure: focus and display are ports.
 */
import { CHANNELS, EVENTS } from '../../src-shared/ipc-contract';
import type { BenchRunView } from '../../src-shared/contract/bench';

export interface NotifierOptions {
  isWindowFocused(): boolean;
  show(title: string, body: string): void;
  /** Renders shorter than this are not worth a notification (default 10 s). */
  minRenderMs?: number;
}

export const DEFAULT_MIN_RENDER_MS = 10_000;

export interface BackgroundNotifier {
  onDidCall(channel: string, durationMs: number, ok: boolean): void;
  onDidEmit(event: string, payload: unknown): void;
}

export function createBackgroundNotifier(o: NotifierOptions): BackgroundNotifier {
  const minRenderMs = o.minRenderMs ?? DEFAULT_MIN_RENDER_MS;
  return {
    onDidCall(channel, durationMs, ok) {
      if (channel !== CHANNELS.synthesize || durationMs < minRenderMs || o.isWindowFocused()) return;
      const took = `${(durationMs / 1000).toFixed(1)} s`;
      o.show(ok ? 'Render finished' : 'Render failed', ok ? `Your audio is ready (took ${took}).` : `The render stopped after ${took}; open the studio for the reason.`);
    },
    onDidEmit(event, payload) {
      if (event !== EVENTS.onDidFinishRun || o.isWindowFocused()) return;
      const run = payload as Partial<BenchRunView> | null;
      const status = run?.status ?? 'done';
      o.show(status === 'failed' ? 'Benchmark failed' : status === 'stopped' ? 'Benchmark stopped' : 'Benchmark finished', run?.error ?? 'The results are on the Benchmark page.');
    },
  };
}
