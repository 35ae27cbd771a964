/**
 * The app shell end to end: it loads, connects to the engine, says plainly that the embedded model
 * is synthetic noise, and every main area opens. Screenshots land in test-results/screenshots.
 */
import { existsSync } from 'node:fs';
import { test, expect } from './fixtures/app';

test('opens the shell, reports a ready engine and navigates every main area', async ({ ui }) => {
  const { page } = ui;
  await expect(page.getByRole('heading', { name: 'Qwen3-TTS Studio' })).toBeVisible();
  await expect(page.getByTestId('engine-status')).toContainText('Engine ready', { timeout: 120_000 });
  await expect(page.getByTestId('synthetic-notice')).toContainText('random weights');
  await expect(page.getByTestId('nav-speak')).toHaveAttribute('aria-current', 'page'); // the app opens on Speak
  for (const area of ['speak', 'voice', 'timeline', 'library', 'bench', 'models', 'settings'] as const) {
    await ui.openArea(area);
    expect(existsSync(await ui.screenshot(`shell-${area}`))).toBe(true);
  }
  await expect(page.getByTestId('host-kind')).toHaveText(/headless|electron/);
});
