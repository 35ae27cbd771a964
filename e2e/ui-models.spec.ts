/**
 * A real model from the UI, with no real network: a hub on loopback (the port start-host.mjs points
 * HF_ENDPOINT at) serves a synthetic checkpoint under the official repo id. Models → Pull… shows the
 * size against free space, downloads and builds it, and Use makes it the active model; a checkpoint
 * folder already on disk is imported, built with the Build action and used. Screenshots at
 * 1440×900 and 1024×700 in dark mode.
 */
import { cpSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { test, expect } from './fixtures/app';
import { waitForEngine, importsTempFolder } from './ui-helpers';
import { FakeHub } from '../src-main/models/testing/fake-hub';
import { listFilesRecursive } from '../src-main/models/model-store';

const PORT = Number(process.env.STUDIO_E2E_PORT ?? 7871);
const REPO = 'Qwen/Qwen3-TTS-12Hz-0.6B-CustomVoice';
const SLUG = 'Qwen--Qwen3-TTS-12Hz-0.6B-CustomVoice';
/** The embedded model's synthetic checkpoint, which the host wrote on start (a real, buildable tiny checkpoint). */
const CHECKPOINT = path.resolve('.cache', `e2e-data-${PORT}`, 'cache', 'embedded-tiny', 'checkpoint-seed1');

let hub: FakeHub | null = null;
let tmp: string | null = null;
test.afterAll(async () => {
  await hub?.dispose();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

test.use({ colorScheme: 'dark', viewport: { width: 1440, height: 900 } });

test('pulls a hub model by repo id after a size check, builds it and makes it active', async ({ ui }, testInfo) => {
  test.skip(Boolean(testInfo.project.metadata?.electronPath), 'the loopback hub is wired into the headless host only');
  const { page } = ui;
  await waitForEngine(page);
  hub = await FakeHub.start(PORT + 7);
  const files: Record<string, Uint8Array> = {};
  for (const rel of await listFilesRecursive(CHECKPOINT)) files[rel] = readFileSync(path.join(CHECKPOINT, rel));
  hub.addRepo(REPO, { files });

  await ui.openArea('models');
  await expect(page.getByTestId('models-online')).toContainText(`Online · 127.0.0.1:${PORT + 7}`);
  await page.getByTestId(`pull-${SLUG}`).click();
  await expect(page.getByTestId('pull-confirm')).toContainText(`Download ${REPO}?`);
  await expect(page.getByTestId('pull-download-size')).toContainText('about 2.52 GB');
  await ui.screenshot('ui-models-confirm-1440-dark');
  await page.getByTestId('pull-confirm-go').click();

  const row = page.getByTestId(`model-${SLUG}`);
  await expect(row.getByTestId('model-status')).toHaveText(/^ready/, { timeout: 120_000 });
  expect(hub.requestsFor('/resolve/').length).toBe(Object.keys(files).length);
  await row.getByTestId(`use-${SLUG}`).click();
  await expect(row.getByTestId('model-active')).toBeVisible({ timeout: 120_000 });
  await waitForEngine(page);
  await ui.screenshot('ui-models-active-1440-dark');

  // A checkpoint folder already on disk: import only, then Build, then Use.
  tmp = importsTempFolder('studio-e2e-ckpt-');
  const folder = path.join(tmp, 'my-checkpoint');
  cpSync(CHECKPOINT, folder, { recursive: true });
  await page.getByTestId('import-path').fill(folder);
  await page.getByTestId('import-check').click();
  await expect(page.getByTestId('pull-confirm')).toContainText(`Import ${folder}?`);
  await page.getByRole('button', { name: 'Import only' }).click();
  const localRow = page.locator('tr', { hasText: folder });
  await expect(localRow.getByTestId('model-status')).toHaveText(/^downloaded/, { timeout: 60_000 });
  await localRow.getByRole('button', { name: 'Build' }).click();
  await expect(localRow.getByTestId('model-status')).toHaveText(/^ready/, { timeout: 120_000 });
  await localRow.getByRole('button', { name: 'Use' }).click();
  await expect(localRow.getByTestId('model-active')).toBeVisible({ timeout: 120_000 });
  await page.setViewportSize({ width: 1024, height: 700 });
  await ui.screenshot('ui-models-1024-dark');

  // Leave the host on the embedded model for the specs that follow (the imported folder is deleted after this spec).
  await page.getByTestId('use-embedded:tiny').click();
  await expect(page.getByTestId('model-embedded:tiny').getByTestId('model-active')).toBeVisible({ timeout: 120_000 });
  await waitForEngine(page);
});
