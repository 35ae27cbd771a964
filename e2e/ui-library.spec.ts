/**
 * The Library as a clip manager end to end: a two-voice clip is found by each voice, a clip is
 * renamed and made a favourite (and the favourites filter shows it), and Re-open asks before it
 * replaces the Timeline's unsaved document, then opens the clip as a new project.
 */
import { test, expect } from './fixtures/app';
import { TWO_TURN_SSML, discardLeftoverRecovery, generateAndWaitForRegions, setDocument, waitForEngine } from './ui-helpers';

test('find a two-voice clip by each voice, rename, favourite, and re-open only after asking', async ({ ui }) => {
  const { page } = ui;
  await waitForEngine(page);
  await discardLeftoverRecovery(page);
  await ui.openArea('timeline');
  await setDocument(page, TWO_TURN_SSML);
  await generateAndWaitForRegions(page, 2);

  await ui.openArea('library');
  const first = page.getByTestId('library-clip').first();
  await expect(first).toContainText('Hello from the first turn');
  await expect(first.getByTestId('clip-voices')).toContainText('Ryan, Vivian');
  for (const voice of ['ryan', 'vivian']) {
    await page.getByLabel('Filter by voice').selectOption(voice);
    await expect(page.getByTestId('library-clip').first()).toContainText('Hello from the first turn');
  }
  await page.getByLabel('Filter by voice').selectOption('');

  const title = `Dialogue ${Date.now()}`;
  await first.getByRole('button', { name: /^Rename / }).click();
  await page.getByLabel('New clip title').fill(title);
  await page.getByLabel('New clip title').press('Enter');
  await expect(first.getByTestId('clip-title')).toHaveText(title);
  await first.getByTestId('clip-favourite').click();
  await expect(first.getByTestId('clip-favourite')).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('library-favourites-only').check();
  await expect(page.getByTestId('library-clip').filter({ hasText: title })).toHaveCount(1);
  await ui.screenshot('ui-library-manager');

  // The Timeline holds an edited, unsaved document: Re-open asks, "Keep mine" keeps it.
  await ui.openArea('timeline');
  await setDocument(page, '<speak>My unsaved script</speak>');
  await ui.openArea('library');
  const clip = page.getByTestId('library-clip').filter({ hasText: title });
  await clip.getByRole('button', { name: `Re-open ${title} in the editor` }).click();
  await expect(clip.getByTestId('reopen-confirm')).toContainText('unsaved changes are lost');
  await ui.screenshot('ui-library-reopen-confirm');
  await clip.getByRole('button', { name: 'Keep mine' }).click();
  await ui.openArea('timeline');
  await expect(page.locator('.cm-content')).toContainText('My unsaved script');
  await ui.openArea('library');
  await clip.getByRole('button', { name: `Re-open ${title} in the editor` }).click();
  await clip.getByRole('button', { name: `Yes, re-open ${title}` }).click();
  await expect(page.getByTestId('nav-timeline')).toHaveAttribute('aria-current', 'page');
  await expect(page.locator('.cm-content')).toContainText('Hello from the first turn');
  await expect(page.getByLabel('Project name')).toHaveValue(title);
});
