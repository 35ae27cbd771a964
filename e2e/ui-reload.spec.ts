/**
 * Persistence end to end: generate, let autosave run, reload the page (as after a crash), find
 * the clip in the library and restore the project from the recovery prompt.
 */
import { test, expect } from './fixtures/app';
import { TWO_TURN_SSML, generateAndWaitForRegions, setDocument, waitForEngine } from './ui-helpers';

test('finds the clip in the library and restores the project after a reload', async ({ ui }) => {
  const { page } = ui;
  await waitForEngine(page);
  await ui.openArea('timeline');
  await page.getByLabel('Project name').fill('Reload check');
  await setDocument(page, TWO_TURN_SSML);
  await generateAndWaitForRegions(page, 2);
  await expect(page.getByTestId('save-state')).toContainText('autosaved', { timeout: 10_000 });

  await page.reload();
  await waitForEngine(page);
  const prompt = page.getByTestId('recovery-prompt');
  await expect(prompt).toContainText('Reload check');
  await ui.screenshot('ui-recovery-prompt');

  await ui.openArea('library');
  await expect(page.getByTestId('library-clip').first()).toContainText('Hello from the first turn');
  await ui.screenshot('ui-library');

  await prompt.getByRole('button', { name: 'Restore' }).click();
  await ui.openArea('timeline');
  await expect(page.getByLabel('Project name')).toHaveValue('Reload check');
  await expect(page.getByTestId('waveform')).toHaveAttribute('data-num-regions', '2', { timeout: 30_000 });
  await expect(page.locator('.cm-content')).toContainText('Hello from the first turn');
});
