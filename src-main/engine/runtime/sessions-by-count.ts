/**
 * Sessions of a weightless graph family (the KV regroup, the codec's row gather) opened on first use,
 * one per source count, and released together.
 */
import { createSession, type OrtSession, type SessionOptions } from './ort';

export interface SessionsByCount {
  open(numSources: number): Promise<OrtSession>;
  release(): Promise<void>;
}

export function sessionsByCount(build: (numSources: number) => Uint8Array, options: SessionOptions): SessionsByCount {
  const sessions = new Map<number, Promise<OrtSession>>();
  return {
    open: (numSources) => {
      let session = sessions.get(numSources);
      if (!session) sessions.set(numSources, (session = createSession(build(numSources), options)));
      return session;
    },
    release: async () => {
      for (const s of sessions.values()) await (await s).release();
      sessions.clear();
    },
  };
}
