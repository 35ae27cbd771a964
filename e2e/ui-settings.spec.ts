/**
 * Settings and output end to end: the theme choice overrides the OS (kept across a reload), the
 * page shows the output loudness, where clips and projects go and the engine it runs on; a
 * plain-text clip from Speak comes out under the −1 dBTP ceiling (its sample peak is too).
 */
import { readFileSync } from 'node:fs';
import { test, expect } from './fixtures/app';
import { waitForEngine } from './ui-helpers';

test.use({ colorScheme: 'light', viewport: { width: 1024, height: 700 } });

test('theme, output facts and engine on Settings', async ({ ui }) => {
  const { page } = ui;
  await waitForEngine(page);
  await ui.openArea('settings');
  await expect(page.getByTestId('theme-system')).toBeChecked();
  await page.getByTestId('theme-dark').check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(bg).toBe('rgb(23, 24, 28)'); // --bg of the dark theme while the OS says light
  await expect(page.getByTestId('output-loudness')).toContainText('-16 LUFS');
  await expect(page.getByTestId('engine-provider')).toContainText('cpu');
  await ui.screenshot('ui-settings-dark-1024');

  await page.reload();
  await waitForEngine(page);
  await expect(page.getByTestId('nav-settings')).toHaveAttribute('aria-current', 'page');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.getByTestId('theme-system').check();
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', /./);
});

test('a plain-text clip is loudness-normalised under the true-peak ceiling', async ({ ui }) => {
  const { page } = ui;
  await waitForEngine(page);
  await ui.openArea('speak');
  await page.getByTestId('speak-input').fill('A plain text line that should not clip.');
  await page.getByTestId('speak-generate').click();
  await expect(page.getByTestId('speak-result')).toBeVisible({ timeout: 90_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('speak-download').click()]);
  const bytes = readFileSync((await download.path())!);
  let peak = 0;
  for (let o = 44; o + 1 < bytes.length; o += 2) peak = Math.max(peak, Math.abs(bytes.readInt16LE(o)));
  // −1 dBTP bounds every sample: 10^(−1/20) × 32768 ≈ 29205
  expect(peak).toBeGreaterThan(0);
  expect(peak).toBeLessThanOrEqual(29205);
});
