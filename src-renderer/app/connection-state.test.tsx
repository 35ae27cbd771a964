// @vitest-environment jsdom
// What the shell shows when the host goes away and comes back: a restarted host (this browser signed
// out) asks for the new sign-in link, an absent one says it reconnects by itself, Generate is off
// with the reason meanwhile, and coming back fetches the engine status at once.
import { describe, expect, it } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import { setBridge } from '../ipc/client';
import { SIGNED_OUT_MESSAGE, reportConnection } from '../ipc/connection';
import { useStudioStore } from '../store/store';
import { resetBetweenTests } from '../testing/reset-between-tests';
import { GenerationPanel } from '../features/timeline/GenerationPanel';
import { requestGenerate } from '../shared-state/generate-actions';
import { App } from './App';

const LISTS = new Set(['studio:tts.listVoices', 'studio:models.list', 'studio:voices.list', 'studio:projects.listRecent', 'studio:projects.list']);

describe('connection state in the shell', () => {
  resetBetweenTests();

  it('asks a signed-out browser for the new sign-in link, then clears the notice and refetches the status once connected', async () => {
    const numCalls = new Map<string, number>();
    setBridge({
      invoke: async (channel) => {
        numCalls.set(channel, (numCalls.get(channel) ?? 0) + 1);
        return { ok: true, value: (LISTS.has(channel) ? [] : null) as never };
      },
      on: () => () => {},
    });
    render(<App />);
    await screen.findByRole('main');
    expect(screen.queryByTestId('connection-banner')).toBeNull();

    act(() => reportConnection({ state: 'signed-out', reason: SIGNED_OUT_MESSAGE }));
    const banner = screen.getByTestId('connection-banner');
    expect(banner.textContent).toContain('Open the new sign-in link printed by the terminal');
    expect(screen.getByTestId('engine-status').textContent).toBe('Signed out');

    const numInfoBefore = numCalls.get('studio:app.info') ?? 0;
    act(() => reportConnection({ state: 'connected' }));
    expect(screen.queryByTestId('connection-banner')).toBeNull();
    await waitFor(() => expect(numCalls.get('studio:app.info')).toBe(numInfoBefore + 1));
    expect(useStudioStore.getState().numConnects).toBe(2); // connected by setBridge at mount, then again
  });

  it('says a host that went away is being reconnected to', async () => {
    setBridge({ invoke: async (channel) => ({ ok: true, value: (LISTS.has(channel) ? [] : null) as never }), on: () => () => {} });
    render(<App />);
    await screen.findByRole('main');
    act(() => reportConnection({ state: 'disconnected', reason: 'the connection to the studio host closed' }));
    expect(screen.getByTestId('connection-banner').textContent).toContain('The connection to the studio host closed. Reconnecting by itself');
    expect(screen.getByTestId('engine-status').textContent).toBe('Disconnected');
  });

  it('turns Generate off while disconnected, with the reason, and refuses the shortcut too', () => {
    useStudioStore.getState().setConnection({ state: 'disconnected', reason: 'the connection to the studio host closed' });
    render(<GenerationPanel />);
    const generate = screen.getByTestId('generate') as HTMLButtonElement;
    expect(generate.disabled).toBe(true);
    expect(generate.title).toContain('Disconnected from the studio host');
    expect(generate.getAttribute('aria-describedby')).toBe('connection-banner');
    expect(requestGenerate()).toBe(false);
    expect(useStudioStore.getState().generateRefusal).toContain('Not generated: Disconnected from the studio host');

    act(() => useStudioStore.getState().setConnection({ state: 'connected' }));
    expect(generate.disabled).toBe(false);
    expect(generate.title).toBe('Ctrl/Cmd+Enter');
  });
});
