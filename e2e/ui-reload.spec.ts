/**
 * Session state end to end: a reload keeps the area, the voice and seed, the document and the
 * timeline without asking; a session that ended unsaved (a new browser profile finds its
 * autosave) is offered with the recovery prompt; projects: Save as, New (asks when unsaved),
 * Open from the projects folder, Delete (asks first).
 */
import { test, expect } from './fixtures/app';
import { TWO_TURN_SSML, discardLeftoverRecovery, generateAndWaitForRegions, setDocument, waitForEngine } from './ui-helpers';

test('a reload keeps page, voice, seed, document and timeline; another session\'s unsaved work is offered', async ({ ui }) => {
  const { page } = ui;
  await waitForEngine(page);
  await discardLeftoverRecovery(page);
  await page.getByTestId('speak-seed').fill('4242');
  await ui.openArea('timeline');
  await page.getByLabel('Project name').fill('Reload check');
  await setDocument(page, TWO_TURN_SSML);
  await generateAndWaitForRegions(page, 2);
  await expect(page.getByTestId('save-state')).toContainText('autosaved', { timeout: 10_000 });

  await page.reload();
  await waitForEngine(page);
  await expect(page.getByTestId('nav-timeline')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByLabel('Project name')).toHaveValue('Reload check');
  await expect(page.locator('.cm-content')).toContainText('Hello from the first turn');
  await expect(page.getByTestId('waveform')).toHaveAttribute('data-num-regions', '2', { timeout: 30_000 });
  await expect(page.getByTestId('recovery-prompt')).toHaveCount(0);
  await ui.screenshot('ui-reload-kept');

  await ui.openArea('speak');
  await expect(page.getByTestId('speak-seed')).toHaveValue('4242');
  await ui.openArea('library');
  await expect(page.getByTestId('library-clip').first()).toContainText('Hello from the first turn');

  // A session that ended without saving: a fresh profile (no stored session) finds the autosave.
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await waitForEngine(page);
  const prompt = page.getByTestId('recovery-prompt');
  await expect(prompt).toContainText('Reload check');
  await ui.screenshot('ui-recovery-prompt');
  await prompt.getByRole('button', { name: 'Restore' }).click();
  await ui.openArea('timeline');
  await expect(page.getByLabel('Project name')).toHaveValue('Reload check');
  await expect(page.getByTestId('waveform')).toHaveAttribute('data-num-regions', '2', { timeout: 30_000 });
});

test('projects: save as, new asks first, open from the projects folder, delete asks first', async ({ ui }) => {
  const { page } = ui;
  await waitForEngine(page);
  await discardLeftoverRecovery(page);
  await ui.openArea('timeline');
  const unique = `Folder project ${Date.now()}`;
  await page.getByLabel('Project name').fill('Original');
  await setDocument(page, '<speak>Original words</speak>');
  await page.getByTestId('project-save').click();
  await expect(page.getByTestId('save-state')).toContainText('saved');

  await page.getByTestId('project-save-as').click();
  await page.getByLabel('New project name').fill(unique);
  await page.getByRole('button', { name: 'Save copy' }).click();
  await expect(page.getByLabel('Project name')).toHaveValue(unique);
  await expect(page.getByTestId('project-open').locator('option', { hasText: unique }).first()).toBeAttached();

  await setDocument(page, '<speak>Changed and not saved</speak>');
  await expect(page.getByTestId('save-state')).toContainText(/unsaved|autosaved/);
  await page.getByTestId('project-new').click();
  const confirm = page.getByTestId('project-confirm');
  await expect(confirm).toContainText('unsaved changes');
  await ui.screenshot('ui-project-new-confirm');
  await confirm.getByRole('button', { name: 'Keep working' }).click();
  await expect(page.locator('.cm-content')).toContainText('Changed and not saved');
  await page.getByTestId('project-new').click();
  await page.getByTestId('project-confirm').getByRole('button', { name: 'Discard and start new' }).click();
  await expect(page.getByLabel('Project name')).toHaveValue('Untitled project');

  const folderOption = page.getByTestId('project-open').locator('optgroup[label="Projects folder"] option', { hasText: unique });
  await page.getByTestId('project-open').selectOption(await folderOption.getAttribute('value'));
  await expect(page.getByLabel('Project name')).toHaveValue(unique);
  await expect(page.locator('.cm-content')).toContainText('Original words');

  await page.getByTestId('project-delete').click();
  await expect(page.getByTestId('project-confirm')).toContainText('Delete the project file');
  await ui.screenshot('ui-project-delete-confirm');
  await page.getByTestId('project-confirm').getByRole('button', { name: 'Delete file' }).click();
  await expect(page.getByTestId('project-open').locator('option', { hasText: unique })).toHaveCount(0);
  await expect(page.getByTestId('project-delete')).toBeDisabled();
});
