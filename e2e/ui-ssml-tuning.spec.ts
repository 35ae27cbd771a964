/**
 * Visual SSML tuning: select words in the editor, move rate/pitch/volume, Apply, add emphasis
 * and a pause — the editor holds standard SSML, the live check (the generation parser, same
 * options) finds no problem and still counts one turn (tuned words split no turn: one voice, one
 * turn, one Timeline region), and Generate makes its parts with the prosody asked for (the trace
 * lists them as 1.1, 1.2, 1.3 with their rate and pitch). Screenshots at 1440×900 light and 1024×700 dark.
 */
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures/app';
import { generateAndWaitForRegions, setDocument, waitForEngine } from './ui-helpers';

const DOC = '<speak>Hello there. This part is tuned. The end.</speak>';

/** Selects `length` characters from `offset` with the keyboard, as a user would. */
async function selectRange(page: Page, offset: number, length: number): Promise<void> {
  await page.locator('.cm-content').click();
  await page.keyboard.press('ControlOrMeta+Home');
  for (let i = 0; i < offset; i++) await page.keyboard.press('ArrowRight');
  for (let i = 0; i < length; i++) await page.keyboard.press('Shift+ArrowRight');
}

test.use({ colorScheme: 'light', viewport: { width: 1440, height: 900 } });

test('select text → rate/pitch/volume/emphasis/pause → SSML that checks and generates', async ({ ui }) => {
  const { page } = ui;
  await waitForEngine(page);
  await ui.openArea('timeline');
  await setDocument(page, DOC);
  await expect(page.getByTestId('turn-count')).toHaveText('1 turn', { timeout: 10_000 });

  // Nothing selected: the controls say what to do and leave the document alone.
  await page.getByTestId('tune-apply').click();
  await expect(page.getByTestId('tune-message')).toContainText('Select the words');

  await selectRange(page, DOC.indexOf('This part'), 'This part is tuned.'.length);
  await page.getByTestId('tune-rate').fill('20');
  await page.getByTestId('tune-pitch').fill('2');
  await page.getByTestId('tune-volume').fill('3');
  await page.getByTestId('tune-apply').click();
  const content = page.locator('.cm-content');
  await expect(content).toContainText('<prosody rate="+20%" pitch="+2st" volume="+3dB">This part is tuned.</prosody>');

  const tuned = '<speak>Hello there. <prosody rate="+20%" pitch="+2st" volume="+3dB">This part is tuned.</prosody> The end.</speak>';
  await selectRange(page, tuned.indexOf('The end.'), 'The end.'.length);
  await page.getByTestId('tune-emphasis').selectOption('reduced');
  await page.getByTestId('tune-emphasis-apply').click();
  await page.getByTestId('tune-break-ms').fill('400');
  await page.getByTestId('tune-break-insert').click();
  // The pause goes after the selection, which after Emphasise is the emphasised words.
  await expect(content).toContainText('<emphasis level="reduced">The end.<break time="400ms"/></emphasis>');
  await expect(page.getByTestId('ssml-diagnostics')).toHaveCount(0);
  await expect(page.getByTestId('turn-count')).toHaveText('1 turn', { timeout: 10_000 });
  await ui.screenshot('ui-ssml-tuning-1440-light');

  await generateAndWaitForRegions(page, 1);
  const rows = page.getByTestId('trace').locator('tbody tr');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1).locator('td').first()).toHaveText('1.2');
  await expect(rows.nth(1)).toContainText('×1.20');
  await expect(rows.nth(1)).toContainText('2.0 st');
  await expect(rows.nth(1)).toContainText('3.0 dB');
  await expect(rows.nth(2)).toContainText('×1.05'); // reduced emphasis: 1.05× rate
  await page.setViewportSize({ width: 1024, height: 700 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await ui.screenshot('ui-ssml-tuning-1024-dark');
});
