/**
 * Catches what a screen throws while rendering, so one failure shows a message with a way out
 * instead of a blank page: "Try again" remounts the screen, "Reload page" reloads the studio. A
 * screen whose code could not be loaded (ChunkLoadError) is tried again by itself, after each delay
 * of autoRetryDelaysMs and whenever retryKey changes (the shell passes a count of reconnections).
 */
import { Component, Fragment, type ErrorInfo, type ReactNode } from 'react';
import { RetryAttemptContext, isChunkLoadError } from './lazy-with-retry';

/** Automatic retries of a screen whose code did not load; after these it waits for retryKey or the user. */
export const AUTO_RETRY_DELAYS_MS: readonly number[] = [1_000, 3_000, 10_000];

export interface ErrorBoundaryProps {
  /** What failed, as the start of a sentence: 'The Timeline area'. */
  label: string;
  /** When this changes while a failure is shown, the boundary tries again. */
  retryKey?: unknown;
  autoRetryDelaysMs?: readonly number[];
  /** Default: window.location.reload(). */
  onReload?: () => void;
  children: ReactNode;
}

interface ErrorBoundaryState {
  error: Error | null;
  /** Bumped on each retry: the children remount under a new key. */
  numAttempts: number;
  numAutoRetries: number;
}

export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null, numAttempts: 0, numAutoRetries: 0 };
  private retryTimer: ReturnType<typeof setTimeout> | null = null;

  static getDerivedStateFromError(error: unknown): Partial<ErrorBoundaryState> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`[studio] ${this.props.label} failed:`, error, info.componentStack);
    this.scheduleAutoRetry();
  }

  override componentDidUpdate(prev: ErrorBoundaryProps): void {
    if (this.state.error && prev.retryKey !== this.props.retryKey) this.retry({ auto: false });
  }

  override componentWillUnmount(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
  }

  private scheduleAutoRetry(): void {
    const delaysMs = this.props.autoRetryDelaysMs ?? AUTO_RETRY_DELAYS_MS;
    if (!isChunkLoadError(this.state.error) || this.retryTimer || this.state.numAutoRetries >= delaysMs.length) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.retry({ auto: true });
    }, delaysMs[this.state.numAutoRetries]);
  }

  private retry({ auto }: { auto: boolean }): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.setState((s) => ({ error: null, numAttempts: s.numAttempts + 1, numAutoRetries: auto ? s.numAutoRetries + 1 : 0 }));
  }

  override render(): ReactNode {
    const { error, numAttempts } = this.state;
    // A new key on each attempt remounts the subtree; a lazy screen whose load failed loads again.
    if (!error)
      return (
        <RetryAttemptContext.Provider value={numAttempts}>
          <Fragment key={numAttempts}>{this.props.children}</Fragment>
        </RetryAttemptContext.Provider>
      );
    const notLoaded = isChunkLoadError(error);
    return (
      <div role="alert" className="error-box" data-testid="area-error" data-kind={notLoaded ? 'not-loaded' : 'crashed'}>
        <p>
          <strong>{notLoaded ? `${this.props.label} could not be loaded.` : `${this.props.label} stopped working.`}</strong>{' '}
          {notLoaded
            ? 'Its code did not arrive from the studio host, which may have restarted or gone away. It is tried again by itself, and as soon as the connection is back.'
            : error.message}
        </p>
        <button onClick={() => this.retry({ auto: false })} data-testid="area-retry">
          Try again
        </button>{' '}
        <button onClick={() => (this.props.onReload ?? (() => window.location.reload()))()} data-testid="area-reload">
          Reload page
        </button>
      </div>
    );
  }
}

