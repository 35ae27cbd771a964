/**
 * React.lazy that can be tried again: React keeps a lazy component's failed load forever, so a
 * screen whose code did not arrive (the host restarted or was away) would stay broken until a page
 * reload. Here a failed load throws ChunkLoadError and the next render loads afresh; ErrorBoundary
 * shows the failure and retries.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

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
  const make = (): LazyExoticComponent<ComponentType<P>> =>
    lazy(() =>
      load().then(
        (component) => ({ default: component }),
        (err: unknown) => {
          current = make(); // the next render loads again
          throw new ChunkLoadError(err);
        },
      ),
    );
  let current = make();
  return function LazyWithRetry(props: P) {
    const Current = current as ComponentType<P>;
    return <Current {...props} />;
  };
}
