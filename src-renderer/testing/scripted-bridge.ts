/**
 * A scripted StudioBridge for renderer tests: each call is answered from a table keyed by channel
 * (a value, or a function of the request; a thrown StudioError becomes an error reply), every call
 * is recorded in order, and `emit` fires an event to what the code under test subscribed.
 * Test-only: imported by *.test.ts(x) files, never by the app.
 */
import type { Channel, EventName, RequestOf, StudioBridge, StudioEvents } from '../../src-shared/ipc-contract';
import { toStudioError } from '../../src-shared/errors';
import { setBridge } from '../ipc/client';

export interface BridgeCall {
  channel: string;
  request: unknown;
}

/** A channel's answer: the value itself, or made from the request (it may return a promise, or throw to fail the call). */
export type ScriptedAnswer<C extends Channel> = ((request: RequestOf<C>) => unknown) | string | number | boolean | object | null;
export type ScriptedAnswers = { [C in Channel]?: ScriptedAnswer<C> };

export interface ScriptedBridge extends StudioBridge {
  /** Every call so far, oldest first. */
  readonly calls: BridgeCall[];
  /** The requests sent to one channel, oldest first. */
  requestsTo(channel: Channel): unknown[];
  /** Delivers an event to the listeners subscribed to it now. */
  emit<E extends EventName>(event: E, payload: StudioEvents[E]): void;
}

/** A channel with no answer in `answers` is answered by `unanswered` (null by default). */
export function createScriptedBridge(answers: ScriptedAnswers, unanswered: (channel: Channel, request: unknown) => unknown = () => null): ScriptedBridge {
  const calls: BridgeCall[] = [];
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const answer = (channel: Channel, request: unknown): unknown => {
    if (!(channel in answers)) return unanswered(channel, request);
    const scripted = answers[channel];
    return typeof scripted === 'function' ? (scripted as (r: unknown) => unknown)(request) : scripted;
  };
  return {
    calls,
    async invoke(channel, request) {
      calls.push({ channel, request });
      try {
        return { ok: true, value: (await answer(channel, request)) as never };
      } catch (err) {
        return { ok: false, error: toStudioError(err).toJSON() };
      }
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      set.add(listener as (payload: unknown) => void);
      listeners.set(event, set);
      return () => set.delete(listener as (payload: unknown) => void);
    },
    requestsTo: (channel) => calls.filter((c) => c.channel === channel).map((c) => c.request),
    emit(event, payload) {
      for (const listener of listeners.get(event) ?? []) listener(payload);
    },
  };
}

/** Creates a scripted bridge and makes it the one the renderer's ipc client uses. */
export function installScriptedBridge(answers: ScriptedAnswers, unanswered?: (channel: Channel, request: unknown) => unknown): ScriptedBridge {
  const bridge = createScriptedBridge(answers, unanswered);
  setBridge(bridge);
  return bridge;
}
