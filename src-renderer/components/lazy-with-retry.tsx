/**
 * React.lazy that can be tried again: React keeps a lazy component's failed load forever, so a
 * screen whose code did not arrive (the host restarted or was away) would stay broken until a page
 * reload. Here a failed load throws ChunkLoadError to the nearest ErrorBoundary, and when that
 * boundary tries again (a new RetryAttemptContext value) the screen loads afresh. Renders in
 * between reuse the failed load, so a host that is away gives one error, not a loop of loads.
 */
import { createContext, lazy, useContext, type ComponentType, type LazyExoticComponent } from 'react';

/** The nearest ErrorBoundary's attempt number: a failed load is loaded again when it changes. */
export const RetryAttemptContext = createContext(0);

/** A screen's code could not be fetched (the browser's "Failed to fetch dynamically imported module"). */
export class ChunkLoadError extends Error {
  constructor(override readonly cause: unknown) {
    super(`its code could not be loaded from the studio host: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'ChunkLoadError';
  }
}

/** True for ChunkLoadError and for the browsers' own messages of a failed import() or Vite preload. */
export function isChunkLoadError(err: unknown): boolean {
  if (err instanceof ChunkLoadError) return true;
  const message = err instanceof Error ? err.message : '';
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(message);
}

export function lazyWithRetry<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  interface Attempt {
    component: LazyExoticComponent<ComponentType<P>>;
    /** The boundary's attempt this load belongs to; null until first rendered. */
    attempt: number | null;
    failed: boolean;
  }
  const make = (attempt: number | null): Attempt => {
    const entry: Attempt = {
      attempt,
      failed: false,
      component: lazy(() =>
        load().then(
          (component) => ({ default: component }),
          (err: unknown) => {
            entry.failed = true;
            throw isChunkLoadError(err) ? new ChunkLoadError(err) : err; // a module that throws as it runs is a crash, not a missing chunk
          },
        ),
      ),
    };
    return entry;
  };
  let current = make(null);
  return function LazyWithRetry(props: P) {
    const attempt = useContext(RetryAttemptContext);
    if (current.attempt === null) current.attempt = attempt;
    else if (current.failed && current.attempt !== attempt) current = make(attempt);
    const Current = current.component as ComponentType<P>;
    return <Current {...props} />;
  };
}
