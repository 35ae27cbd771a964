/**
 * Speak, end to end against the headless host: the app opens on the Speak screen; type, pick a
 * speaker and seed, preview the speaker, Generate, see the voice and seed the engine used, play
 * and download a valid WAV; the Library files the clip under that voice. Screenshots in dark mode
 * at 1440×900 and 1024×700.
 */
import { readFileSync } from 'node:fs';
import { test, expect } from './fixtures/app';
import { waitForEngine } from './ui-helpers';

test.use({ colorScheme: 'dark', viewport: { width: 1440, height: 900 } });

test('speaks from one screen and shows the voice and seed used', async ({ ui }) => {
  const { page } = ui;
  await waitForEngine(page);
  await expect(page.getByTestId('nav-speak')).toHaveAttribute('aria-current', 'page');
  const speaker = page.getByTestId('speak-speaker');
  await expect(speaker.locator('option')).toHaveCount(9);
  await speaker.selectOption('aiden');
  await page.getByTestId('speak-seed').fill('4242');
  await page.getByTestId('speak-input').fill('Good morning, this is a test of the speak screen.');
  await expect(page.getByTestId('speak-will-use')).toHaveText('will use Aiden · seed 4242');

  await page.getByTestId('speak-preview').click();
  await expect(page.getByTestId('speak-preview')).toHaveText('Preview', { timeout: 60_000 });
  await expect(page.getByTestId('speak-error')).toHaveCount(0);

  await page.getByTestId('speak-generate').click();
  await expect(page.getByTestId('speak-result')).toBeVisible({ timeout: 90_000 });
  await expect(page.getByTestId('speak-used-voice')).toHaveText('Aiden');
  await expect(page.getByTestId('speak-used-seed')).toHaveText('4242');
  await expect(page.getByTestId('speak-audio')).toHaveAttribute('src', /^blob:/);
  await ui.screenshot('ui-speak-1440-dark');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('speak-download').click()]);
  expect(download.suggestedFilename()).toBe('speech-aiden-seed4242.wav');
  const bytes = readFileSync((await download.path())!);
  expect(bytes.toString('ascii', 0, 4)).toBe('RIFF');
  expect(bytes.readUInt32LE(40)).toBe(bytes.length - 44);
  expect(bytes.readUInt32LE(40)).toBeGreaterThan(0);

  // Ctrl+Enter in the text box speaks again with a new random seed.
  await page.getByTestId('speak-seed-random').check();
  await page.getByTestId('speak-input').press('Control+Enter');
  await expect(page.getByTestId('speak-used-seed')).not.toHaveText('4242', { timeout: 90_000 });
  const seedUsed = await page.getByTestId('speak-used-seed').textContent();
  await expect(page.getByTestId('speak-seed')).toHaveValue(seedUsed!);

  await page.setViewportSize({ width: 1024, height: 700 });
  await ui.screenshot('ui-speak-1024-dark');

  await ui.openArea('library');
  await expect(page.getByText('Good morning, this is a test of the speak screen.').first()).toBeVisible();
});
