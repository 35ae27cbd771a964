// @vitest-environment jsdom
// The error boundary every area sits in, and lazy screens whose code fails to load: a crash shows
// the message with Try again / Reload page instead of a blank page; a chunk that did not arrive
// says so and loads again by itself (after a delay, or when the connection comes back).
import { describe, expect, it, vi } from 'vitest';
import { Suspense, useState } from 'react';
import { fireEvent, render, screen } from '@testing-library/react';
import { ErrorBoundary } from './ErrorBoundary';
import { ChunkLoadError, isChunkLoadError, lazyWithRetry } from './lazy-with-retry';
import { resetBetweenTests } from '../testing/reset-between-tests';

/** A screen's loader that fails the way a browser does while the host is away. */
function hostLoader() {
  const host = { up: false };
  const load = vi.fn(async () => {
    if (!host.up) throw new TypeError('Failed to fetch dynamically imported module: http://127.0.0.1:7871/assets/Workspace-abc.js');
    return function Workspace() {
      return <p>timeline loaded</p>;
    };
  });
  return { host, load };
}

describe('ErrorBoundary', () => {
  resetBetweenTests();
  vi.spyOn(console, 'error').mockImplementation(() => {}); // React reports caught errors too

  it('shows what failed with Try again and Reload page when a screen throws, and Try again remounts it', () => {
    let shouldThrow = true;
    function Fragile() {
      if (shouldThrow) throw new Error('cannot read the take list');
      return <p>recovered</p>;
    }
    const onReload = vi.fn();
    render(
      <ErrorBoundary label="The Library area" onReload={onReload}>
        <Fragile />
      </ErrorBoundary>,
    );
    const alert = screen.getByTestId('area-error');
    expect(alert.textContent).toContain('The Library area stopped working.');
    expect(alert.textContent).toContain('cannot read the take list');
    expect(alert.getAttribute('data-kind')).toBe('crashed');
    fireEvent.click(screen.getByRole('button', { name: 'Reload page' }));
    expect(onReload).toHaveBeenCalledTimes(1);
    shouldThrow = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByText('recovered')).toBeTruthy();
    expect(screen.queryByTestId('area-error')).toBeNull();
  });

  it('says a lazy screen could not be loaded and loads it again by itself after the delay', async () => {
    const { host, load } = hostLoader();
    const Screen = lazyWithRetry(load);
    render(
      <ErrorBoundary label="The Timeline area" autoRetryDelaysMs={[100]}>
        <Suspense fallback={<p>Loading…</p>}>
          <Screen />
        </Suspense>
      </ErrorBoundary>,
    );
    const alert = await screen.findByTestId('area-error');
    expect(alert.getAttribute('data-kind')).toBe('not-loaded');
    expect(alert.textContent).toContain('The Timeline area could not be loaded.');
    const numLoadsWhileAway = load.mock.calls.length;
    host.up = true;
    expect(await screen.findByText('timeline loaded')).toBeTruthy();
    expect(load.mock.calls.length).toBe(numLoadsWhileAway + 1);
  });

  it('shows one error for a screen whose host stays away, not a loop of loads', async () => {
    const { load } = hostLoader();
    const Screen = lazyWithRetry(load);
    render(
      <ErrorBoundary label="The Benchmark area" autoRetryDelaysMs={[]}>
        <Suspense fallback={<p>Loading…</p>}>
          <Screen />
        </Suspense>
      </ErrorBoundary>,
    );
    await screen.findByTestId('area-error');
    await new Promise((r) => setTimeout(r, 200));
    expect(load).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('area-error').textContent).toContain('The Benchmark area could not be loaded.');
  });

  it('tries a screen that did not load again when retryKey changes (the host is back)', async () => {
    const { host, load } = hostLoader();
    const Screen = lazyWithRetry(load);
    let reconnect: () => void = () => {};
    function Shell() {
      const [numConnects, setNumConnects] = useState(1);
      reconnect = () => setNumConnects((n) => n + 1);
      return (
        <ErrorBoundary label="The Timeline area" retryKey={numConnects} autoRetryDelaysMs={[]}>
          <Suspense fallback={<p>Loading…</p>}>
            <Screen />
          </Suspense>
        </ErrorBoundary>
      );
    }
    render(<Shell />);
    await screen.findByTestId('area-error');
    host.up = true;
    const numLoadsWhileAway = load.mock.calls.length;
    await new Promise((r) => setTimeout(r, 100));
    expect(load.mock.calls.length).toBe(numLoadsWhileAway); // no automatic retry with autoRetryDelaysMs []
    expect(screen.getByTestId('area-error')).toBeTruthy();
    reconnect();
    expect(await screen.findByText('timeline loaded')).toBeTruthy();
    expect(load.mock.calls.length).toBe(numLoadsWhileAway + 1);
  });

  it('recognises the browsers\' failed-import messages as chunk load failures, and nothing else', () => {
    expect(isChunkLoadError(new ChunkLoadError(new Error('x')))).toBe(true);
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: http://h/a.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module: http://h/a.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('cannot read the take list'))).toBe(false);
  });
});
