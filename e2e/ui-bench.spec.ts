/**
 * The benchmark dashboard end to end: a 10 s run with 2 clients against this host's engine,
 * the live charts gain points while it runs, and the protocol's tables fill at the end.
 */
import { test, expect } from './fixtures/app';
import { waitForEngine } from './ui-helpers';

test('runs a 10 s benchmark with 2 clients, charts move and tables fill', async ({ ui }) => {
  test.setTimeout(300_000);
  const { page } = ui;
  await waitForEngine(page);
  await ui.openArea('bench');
  await page.getByLabel('Client counts').fill('2');
  await page.getByLabel('Window seconds').fill('10');
  await page.getByLabel('Passes').fill('1');
  await page.getByTestId('bench-start').click();
  await expect(page.getByTestId('bench-status')).toContainText('running');
  const chart = page.getByTestId('chart-throughput');
  await expect.poll(async () => Number(await chart.getAttribute('data-num-points')), { timeout: 60_000 }).toBeGreaterThan(4);
  const before = Number(await chart.getAttribute('data-num-points'));
  await expect.poll(async () => Number(await chart.getAttribute('data-num-points')), { timeout: 30_000 }).toBeGreaterThan(before);
  await ui.screenshot('ui-bench-live');
  await expect(page.getByTestId('bench-status')).toContainText('done', { timeout: 240_000 });
  await expect(page.getByTestId('bench-summary').locator('tbody tr')).toHaveCount(1);
  await expect(page.getByTestId('bench-passes').locator('tbody tr')).toHaveCount(1);
  await expect(page.getByTestId('bench-summary').locator('tbody tr').first()).toContainText('plain');
  await ui.screenshot('ui-bench-done');
});
