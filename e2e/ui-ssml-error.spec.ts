/**
 * SSML diagnostics end to end: an unclosed element on line 3 shows a diagnostic at that line,
 * Generate is disabled until it is fixed.
 */
import { test, expect } from './fixtures/app';
import { setDocument, waitForEngine } from './ui-helpers';

test('shows the parser diagnostic at the right line and clears it when fixed', async ({ ui }) => {
  const { page } = ui;
  await waitForEngine(page);
  await ui.openArea('timeline');
  await setDocument(page, '<speak>\n  <voice name="ryan">Fine.</voice>\n  <prosody rate="90%">Not closed.\n</speak>');
  const diagnostics = page.getByTestId('ssml-diagnostics');
  await expect(diagnostics).toContainText('Line 3', { timeout: 10_000 }); // where the <prosody> opened
  await expect(page.locator('.cm-lintRange-error').first()).toBeVisible();
  await expect(page.getByTestId('generate')).toBeDisabled();
  await ui.screenshot('ui-ssml-error');
  await setDocument(page, '<speak>\n  <voice name="ryan">Fine.</voice>\n  <prosody rate="90%">Closed.</prosody>\n</speak>');
  await expect(diagnostics).toHaveCount(0);
  await expect(page.getByTestId('generate')).toBeEnabled();
});
