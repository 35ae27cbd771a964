/**
 * The Render page end to end: a two-chapter, six-paragraph text rendered on the host's engines
 * shows its progress part by part and per chapter, lands in the Library, and its WAV is byte for
 * byte the file `studio render` writes for the same document, voice, language and seed (the CLI's
 * split and assembly: one loudness normalisation over the whole work).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from './fixtures/app';
import { discardLeftoverRecovery, waitForEngine } from './ui-helpers';

const DOCUMENT = [
  '# Morning',
  'The sun rose over the hills.',
  'Birds began to sing in the trees.',
  'A kettle whistled in the kitchen.',
  '# Evening',
  'The light faded slowly.',
  'Someone closed the shutters.',
  'The house fell quiet at last.',
].join('\n\n');

test('render a multi-paragraph document: progress per part, the file in the Library, equal to the CLI render', async ({ ui }) => {
  const { page } = ui;
  await waitForEngine(page);
  await discardLeftoverRecovery(page);
  await ui.openArea('render');
  const title = `Day ${Date.now()}`;
  await page.getByLabel('Render title').fill(title);
  await page.getByLabel('Document text').fill(DOCUMENT);
  await page.getByLabel('Render seed').fill('7');
  // record every parts count the page shows, so progress part by part is asserted, not only the end
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { renderCounts: string[] }).renderCounts = seen;
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="render-count"]')?.textContent ?? '';
      if (text && seen[seen.length - 1] !== text) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await page.getByRole('button', { name: 'Start render' }).click();

  const job = page.getByTestId('render-job').filter({ hasText: title });
  await expect(job).toHaveAttribute('data-state', 'done', { timeout: 90_000 });
  await expect(job.getByTestId('render-count')).toHaveText('6/6 parts');
  await expect(job.getByLabel('Morning: 3 of 3 parts')).toBeVisible();
  await expect(job.getByLabel('Evening: 3 of 3 parts')).toBeVisible();
  const counts = await page.evaluate(() => (window as unknown as { renderCounts: string[] }).renderCounts);
  const done = counts.map((c) => Number(/^(\d+)\//.exec(c)?.[1]));
  expect(done[0]).toBe(0);
  expect(done[done.length - 1]).toBe(6);
  expect(done.length).toBeGreaterThan(2); // at least one count between 0 and 6 was shown
  expect(done.every((n, i) => i === 0 || n > done[i - 1])).toBe(true);
  await ui.screenshot('ui-render-done');

  // The same document through `studio render`, one process, its own engine: the same bytes.
  const outputPath = (await job.getByTestId('render-output').textContent())!;
  const record = JSON.parse(fs.readFileSync(path.join(path.dirname(outputPath), 'render.json'), 'utf8')) as { settings: { voice: string; language: string; seed: number } };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-e2e-render-'));
  try {
    const documentPath = path.join(tmp, 'day.txt');
    fs.writeFileSync(documentPath, DOCUMENT);
    const { voice, language, seed } = record.settings;
    execFileSync(process.execPath, ['out/main/cli.js', 'render', documentPath, '--voice', voice, '--language', language, '--seed', String(seed), '--out-dir', path.join(tmp, 'out')], {
      stdio: 'pipe',
      timeout: 120_000,
      env: { ...process.env, STUDIO_DATA_DIR: path.resolve('.cache', `e2e-cli-render`) },
    });
    const cli = fs.readFileSync(path.join(tmp, 'out', 'day.wav'));
    const studio = fs.readFileSync(outputPath);
    expect(studio.length).toBe(cli.length);
    expect(studio.equals(cli)).toBe(true);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }

  await job.getByRole('button', { name: 'In the Library' }).click();
  await expect(page.getByTestId('library-clip').filter({ hasText: title })).toHaveCount(1);
});
