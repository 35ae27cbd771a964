/**
 * The app shell: a "Skip to main content" link first in the tab order, header with engine status
 * and the synthetic-model notice, the connection banner while the host is away or this browser is
 * signed out, navigation between the main areas, and the open area's panel. Each area's UI lives
 * in features/<area>/.
 */
import { Suspense } from 'react';
import { AREAS, AREA_LABELS, type Area } from './shell.slice';
import { useStudioStore } from '../store/store';
import { useEngineStatus } from './useEngineStatus';
import { AREA_PANELS } from './area-panels';
import { DesktopBridge } from './DesktopBridge';
import { ConnectionBanner } from './ConnectionBanner';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { lazyWithRetry } from '../components/lazy-with-retry';
import './app.css';

const FirstRun = lazyWithRetry(() => import('../features/models/FirstRun').then((m) => m.FirstRun));

export function App() {
  useEngineStatus();
  const area = useStudioStore((s) => s.area);
  const setArea = useStudioStore((s) => s.setArea);
  const status = useStudioStore((s) => s.engineStatus);
  const connection = useStudioStore((s) => s.connection);
  const numConnects = useStudioStore((s) => s.numConnects);
  const firstRunOpen = useStudioStore((s) => s.firstRunOpen);
  const Panel = AREA_PANELS[area];
  return (
    <div className="shell">
      {/* Moves focus itself rather than following the fragment, so the page's address never changes. */}
      <a
        className="skip-link"
        href="#main-content"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById('main-content')?.focus();
        }}
      >
        Skip to main content
      </a>
      <header className="shell-header">
        <h1>Qwen3-TTS Studio</h1>
        <span className="engine-status" data-testid="engine-status" aria-live="polite">
          {connection.state === 'disconnected'
            ? 'Disconnected'
            : connection.state === 'signed-out'
              ? 'Signed out'
              : status
                ? `Engine ${status.state} · ${status.provider || '…'}`
                : 'Connecting…'}
        </span>
      </header>
      <ConnectionBanner connection={connection} />
      {status?.model?.synthetic === true && area === 'speak' && (
        <ErrorBoundary label="The first-run guide" retryKey={numConnects}>
          <Suspense fallback={null}>
            <FirstRun />
          </Suspense>
        </ErrorBoundary>
      )}
      {status?.model?.synthetic !== false && !firstRunOpen && (
        <div className="notice" role="note" data-testid="synthetic-notice">
          The loaded model is a synthetic checkpoint with random weights: it produces noise, not speech. Install a real model
          on the <button className="link" onClick={() => setArea('models')}>Models</button> page.
        </div>
      )}
      <DesktopBridge />
      <nav className="shell-nav" aria-label="Main areas">
        {AREAS.map((a: Area) => (
          <button key={a} aria-current={a === area ? 'page' : undefined} onClick={() => setArea(a)} data-testid={`nav-${a}`}>
            {AREA_LABELS[a]}
          </button>
        ))}
      </nav>
      <main id="main-content" tabIndex={-1} className="shell-main" aria-label={AREA_LABELS[area]}>
        <Panel />
      </main>
    </div>
  );
}
