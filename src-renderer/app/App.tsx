/**
 * The app shell: a "Skip to main content" link first in the tab order, header with engine status
 * and the synthetic-model notice, navigation between the main areas, and the open area's panel.
 * Each area's UI lives in features/<area>/.
 */
import { Suspense, lazy } from 'react';
import { AREAS, AREA_LABELS, type Area } from './shell.slice';
import { useStudioStore } from '../store/store';
import { useEngineStatus } from './useEngineStatus';
import { AREA_PANELS } from './area-panels';
import { DesktopBridge } from './DesktopBridge';
import './app.css';

const FirstRun = lazy(() => import('../features/models/FirstRun').then((m) => ({ default: m.FirstRun })));

export function App() {
  useEngineStatus();
  const area = useStudioStore((s) => s.area);
  const setArea = useStudioStore((s) => s.setArea);
  const status = useStudioStore((s) => s.engineStatus);
  const connectionError = useStudioStore((s) => s.connectionError);
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
          {connectionError ? `Disconnected: ${connectionError}` : status ? `Engine ${status.state} · ${status.provider || '…'}` : 'Connecting…'}
        </span>
      </header>
      {status?.model?.synthetic === true && area === 'speak' && (
        <Suspense fallback={null}>
          <FirstRun />
        </Suspense>
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
