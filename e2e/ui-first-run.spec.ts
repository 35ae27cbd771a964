/**
 * First run on a fresh data folder (the host's, before any spec installs a model): the home page
 * leads with the first-run screen and its synthetic-model note; a checkpoint folder on disk is
 * checked (sizes), imported and built, and one click ("Use …") makes it the active model. Leaves
 * the host as it found it (embedded model active, the imported model forgotten). Screenshots at
 * 1440×900 light and 1024×700 dark.
 */
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { test, expect } from './fixtures/app';
import { waitForEngine, importsTempFolder } from './ui-helpers';

const PORT = Number(process.env.STUDIO_E2E_PORT ?? 7871);
/** The embedded model's synthetic checkpoint, written by the host on start (real and buildable). */
const CHECKPOINT = path.resolve('.cache', `e2e-data-${PORT}`, 'cache', 'embedded-tiny', 'checkpoint-seed1');

let tmp: string | null = null;
test.afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

test.use({ colorScheme: 'light', viewport: { width: 1440, height: 900 } });

test('first run → import a model folder → active in one click', async ({ ui }, testInfo) => {
  test.skip(Boolean(testInfo.project.metadata?.electronPath), 'needs the headless host with its fresh data folder');
  const { page } = ui;
  await waitForEngine(page);
  const firstRun = page.getByTestId('first-run');
  await expect(firstRun).toBeVisible();
  await expect(firstRun.getByTestId('synthetic-notice')).toContainText('noise, not speech');
  await ui.screenshot('ui-first-run-1440-light');

  tmp = importsTempFolder('studio-e2e-first-run-');
  const folder = path.join(tmp, 'my-first-checkpoint');
  cpSync(CHECKPOINT, folder, { recursive: true });
  await page.getByTestId('first-run-toggle').click(); // the panel opens compact
  await page.getByTestId('first-run-path').fill(folder);
  await page.getByTestId('first-run-check').click();
  await expect(page.getByTestId('pull-confirm')).toContainText(`Import ${folder}?`);
  await page.getByTestId('pull-confirm-go').click();
  const use = page.getByTestId('first-run-use');
  await expect(use).toBeVisible({ timeout: 120_000 });
  await page.setViewportSize({ width: 1024, height: 700 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await ui.screenshot('ui-first-run-ready-1024-dark');
  await use.click();
  await expect(firstRun).toBeHidden({ timeout: 120_000 });
  await waitForEngine(page);

  await ui.openArea('models');
  const row = page.locator('tr', { hasText: folder });
  await expect(row.getByTestId('model-active')).toBeVisible();
  // Back to the embedded model, and forget the imported one, for the specs that follow.
  await page.getByTestId('use-embedded:tiny').click();
  await expect(page.getByTestId('model-embedded:tiny').getByTestId('model-active')).toBeVisible({ timeout: 120_000 });
  await row.getByRole('button', { name: 'Remove…' }).click();
  await row.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(row).toHaveCount(0);
  await waitForEngine(page);
});
