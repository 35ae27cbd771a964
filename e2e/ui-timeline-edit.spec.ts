/**
 * Editing the timeline end to end: zoom with its level shown, trim one turn, move the gap before
 * the other, lower its gain, undo and redo (buttons and Ctrl+Z outside text fields), drag a
 * selection and loop it; the export has exactly the samples the view shows. Dark mode screenshots
 * at 1440×900 and 1024×700.
 */
import { readFileSync } from 'node:fs';
import { test, expect } from './fixtures/app';
import { TWO_TURN_SSML, generateAndWaitForRegions, setDocument, waitForEngine } from './ui-helpers';

test.use({ colorScheme: 'dark', viewport: { width: 1440, height: 900 } });

async function durationS(page: import('@playwright/test').Page): Promise<number> {
  const text = (await page.getByTestId('timeline-duration').textContent()) ?? '';
  return Number(/([\d.]+) s/.exec(text)?.[1]);
}

async function exportedSamples(page: import('@playwright/test').Page): Promise<number> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-audio').click()]);
  const bytes = readFileSync((await download.path())!);
  return bytes.readUInt32LE(40) / 2;
}

test('trims, moves a gap, changes gain, undoes and redoes, loops a selection; the export matches the view', async ({ ui }) => {
  const { page } = ui;
  await waitForEngine(page);
  await ui.openArea('timeline');
  await setDocument(page, TWO_TURN_SSML);
  await generateAndWaitForRegions(page, 2);

  await expect(page.getByTestId('zoom-level')).toHaveText('100 px/s');
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await expect(page.getByTestId('zoom-level')).toHaveText('150 px/s');
  await page.getByRole('button', { name: 'Zoom out' }).click();

  const before = await durationS(page);
  await expect(page.getByTestId('undo')).toBeDisabled();
  await page.getByTestId('trim-end-0').fill('500');
  await expect.poll(() => durationS(page)).toBeCloseTo(before - 0.5, 1);
  await page.getByTestId('gap-1').fill('1000');
  await page.getByTestId('gain-1').fill('-6');
  const edited = await durationS(page);
  expect(edited).toBeGreaterThan(before - 0.5); // the gap grew from 120 ms to 1 s
  expect((await exportedSamples(page)) / 24_000).toBeCloseTo(edited, 2);

  // Undo the gain, the gap and the trim (three steps), then redo one; Ctrl+Z works outside fields.
  await page.getByTestId('undo').click();
  await expect(page.getByTestId('gain-1')).toHaveValue('0');
  await page.getByTestId('undo').click();
  await expect(page.getByTestId('gap-1')).toHaveValue('');
  await page.locator('#timeline-heading').click();
  await page.keyboard.press('Control+Z');
  await expect(page.getByTestId('trim-end-0')).toHaveValue('0');
  await expect.poll(() => durationS(page)).toBeCloseTo(before, 2);
  await page.keyboard.press('Control+Shift+Z');
  await expect(page.getByTestId('trim-end-0')).toHaveValue('500');
  expect((await exportedSamples(page)) / 24_000).toBeCloseTo(await durationS(page), 2);

  // Drag a selection across the waveform and loop it.
  const box = (await page.getByTestId('waveform').boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.4);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.4, { steps: 8 });
  await page.mouse.move(box.x + box.width * 0.45, box.y + box.height * 0.4, { steps: 8 });
  await page.mouse.up();
  await expect(page.getByTestId('selection')).toContainText('Selection');
  await page.getByTestId('loop').check();
  await page.getByTestId('play-selection').click();
  await expect(page.getByTestId('play-state')).toContainText('playing', { timeout: 10_000 });
  await ui.screenshot('ui-timeline-edit-1440-dark');
  await page.getByTestId('play').click();
  await page.setViewportSize({ width: 1024, height: 700 });
  await ui.screenshot('ui-timeline-edit-1024-dark');
});
