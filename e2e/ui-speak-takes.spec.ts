/**
 * Speak's take history, end to end against the headless host (the embedded tiny model: the audio
 * is noise): Generate twice, see two takes with waveforms and different seeds, play A then B in the
 * compare and read which take is sounding, keep one; after a reload the history, the kept mark and
 * the waveforms (read back from the Library) are still there. Screenshots at 1440×900 and 1024×700
 * into the test's output folder.
 */
import { test, expect } from './fixtures/app';
import { waitForEngine } from './ui-helpers';

const GENERATION_MS = 90_000;

test.use({ viewport: { width: 1440, height: 900 } });

test('keeps each Speak generation as a take, says which take sounds in A/B, and keeps one across a reload', async ({ ui }, testInfo) => {
  const { page } = ui;
  await waitForEngine(page);
  await page.getByTestId('speak-input').fill('A take history test. The same words twice, each time with a new seed, so the two takes differ and can be compared.');
  await page.getByTestId('speak-seed-random').check();
  const generate = page.getByTestId('speak-generate');
  const takes = page.getByTestId('speak-take');

  await generate.click();
  await expect(takes).toHaveCount(1, { timeout: GENERATION_MS });
  await expect(generate).toBeEnabled({ timeout: GENERATION_MS });
  await generate.click();
  await expect(takes).toHaveCount(2, { timeout: GENERATION_MS });
  await expect(takes.getByTestId('speak-take-name')).toHaveText(['Take 2', 'Take 1']);

  // Each take has a drawn waveform (one bar per slice) and its own seed.
  for (const take of [takes.nth(0), takes.nth(1)]) {
    const bars = take.getByTestId('take-waveform').locator('path').first();
    await expect(bars).toHaveAttribute('d', /^M0\.5 [\d.]+V[\d.]+(M[\d.]+ [\d.]+V[\d.]+){100,}/);
  }
  const seedOf = async (i: number) => (await takes.nth(i).getByTestId('speak-take-used').textContent())?.match(/seed (\d+)/)?.[1];
  expect(await seedOf(0)).not.toBe(await seedOf(1));

  // A/B: the newest (Take 2) is B against Take 1 as A.
  await page.getByTestId('speak-compare-start').click();
  const sounding = page.getByTestId('speak-ab-sounding');
  await expect(sounding).toHaveText('Nothing sounding');
  await page.getByTestId('speak-play-a').click();
  await expect(sounding).toHaveText('Sounding: A — Take 1');
  await expect(takes.nth(1)).toHaveAttribute('data-sounding', 'true');
  await expect(takes.nth(0)).toHaveAttribute('data-sounding', 'false');
  await expect(page.getByTestId('speak-compare-a')).toHaveAttribute('data-sounding', 'true');

  await page.getByTestId('speak-play-b').click();
  await expect(sounding).toHaveText('Sounding: B — Take 2');
  await expect(takes.nth(0)).toHaveAttribute('data-sounding', 'true');
  await expect(takes.nth(1)).toHaveAttribute('data-sounding', 'false');
  await expect(page.getByTestId('speak-play-b')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('speak-play-a')).toHaveAttribute('aria-pressed', 'false');
  await page.screenshot({ path: testInfo.outputPath('speak-takes-ab-1440x900.png'), fullPage: true });

  // Keep Take 1: marked on its row and counted.
  await takes.nth(1).getByTestId('speak-take-keep').click();
  await expect(takes.nth(1).getByTestId('speak-take-keep')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('speak-takes-count')).toContainText('2 takes · 1 kept');

  await page.setViewportSize({ width: 1024, height: 700 });
  await page.screenshot({ path: testInfo.outputPath('speak-takes-1024x700.png'), fullPage: true });

  // A reload keeps the history and the mark; the waveforms come back from the Library.
  await page.reload();
  await waitForEngine(page);
  await expect(takes).toHaveCount(2);
  await expect(takes.getByTestId('speak-take-name')).toHaveText(['Take 2', 'Take 1']);
  await expect(takes.nth(1).getByTestId('speak-take-keep')).toHaveAttribute('aria-pressed', 'true');
  // A take reads its audio when its row comes into view.
  await page.setViewportSize({ width: 1440, height: 900 });
  for (const take of [takes.nth(0), takes.nth(1)]) {
    await take.scrollIntoViewIfNeeded();
    await expect(take.getByTestId('take-waveform')).toBeVisible();
  }
  await page.screenshot({ path: testInfo.outputPath('speak-takes-after-reload-1440x900.png'), fullPage: true });
});
