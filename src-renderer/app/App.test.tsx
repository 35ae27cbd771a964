// @vitest-environment jsdom
// The shell from the keyboard: the first thing Tab reaches is "Skip to main content", and it moves
// focus to the open area's panel (the main landmark) without changing the page's address.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { setBridge } from '../ipc/client';
import { resetStore } from '../store/store';
import { App } from './App';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

describe('App shell', () => {
  afterEach(() => {
    cleanup();
    setBridge(null);
  });

  it('starts the tab order with a skip link that moves focus to the main content', async () => {
    resetStore();
    const lists = new Set(['studio:tts.listVoices', 'studio:models.list', 'studio:voices.list', 'studio:projects.listRecent', 'studio:projects.list']);
    setBridge({ invoke: async (channel) => ({ ok: true, value: (lists.has(channel) ? [] : null) as never }), on: () => () => {} });
    const { container } = render(<App />);
    await screen.findByRole('main');
    const first = container.querySelector<HTMLElement>(FOCUSABLE);
    expect(first?.textContent).toBe('Skip to main content');
    const before = window.location.href;
    fireEvent.click(first!);
    expect(document.activeElement).toBe(screen.getByRole('main'));
    expect(window.location.href).toBe(before);
  });
});
