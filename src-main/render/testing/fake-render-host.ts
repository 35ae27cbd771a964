/**
 * A fake engine host for render tests: a tone per part whose length follows the text, model info,
 * cancel that releases a hanging part, and inputs that fail with a given reason per try.
 */
import { StudioError } from '../../../src-shared/errors';
import type { EngineHostApi } from '../../engine-client/engine-host-api';

export const RATE = 24_000;
export const MODEL = { id: 'embedded:tiny', modelHash: 'h', defaultParams: { temperature: 0.9 } };

export interface FakeHost {
  call(method: string, req: { requestId?: string; input?: string; savedVoices?: readonly { name: string }[] }): Promise<unknown>;
  synthesized: string[];
  /** The saved voices' names each synthesised input came with, by input. */
  savedVoiceNames: Map<string, string[]>;
  cancelled: string[];
  /** Inputs that fail (a reason per try), or hang until cancelled. */
  failing: Map<string, string[]>;
  hanging: Set<string>;
}

export function fakeRenderHost(): FakeHost {
  const waiters = new Map<string, () => void>();
  const host: FakeHost = {
    synthesized: [],
    savedVoiceNames: new Map(),
    cancelled: [],
    failing: new Map(),
    hanging: new Set(),
    async call(method, req) {
      if (method === 'modelInfo') return MODEL;
      if (method === 'cancel') {
        host.cancelled.push(req.requestId!);
        waiters.get(req.requestId!)?.();
        return { cancelled: true };
      }
      const input = req.input!;
      const reasons = host.failing.get(input);
      if (reasons && reasons.length > 0) throw new StudioError(reasons[0] === 'ssml' ? 'ssml-invalid' : 'engine-crashed', reasons.shift()!);
      if ([...host.hanging].some((h) => input.includes(h))) {
        await new Promise<void>((resolve) => waiters.set(req.requestId!, resolve));
        throw new StudioError('cancelled', 'cancelled');
      }
      host.synthesized.push(input);
      host.savedVoiceNames.set(input, (req.savedVoices ?? []).map((v) => v.name));
      const pcm = Float32Array.from({ length: 100 * input.length }, (_, i) => 0.2 * Math.sin(i / 7));
      return { pcm, sampleRateHz: RATE };
    },
  };
  return host;
}

export const asHost = (h: FakeHost) => h as unknown as Pick<EngineHostApi, 'call'>;
