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
  // The report's columns: errors as failed of sent, p99 and audio-s/s among the headers.
  await expect(page.getByTestId('bench-errors').first()).toHaveText(/^0 \/ [1-9]\d*$/);
  await expect(page.getByTestId('bench-passes').locator('thead')).toContainText('p99 latency s');
  await expect(page.getByTestId('bench-passes').locator('thead')).toContainText('Audio s/s');
  // One id per run: the finished run is listed once among past runs, under the id shown while it ran.
  const tables = page.locator('[data-testid^="bench-tables-"]').first();
  const runId = (await tables.getAttribute('data-testid'))!.slice('bench-tables-'.length);
  expect(runId).toMatch(/^\d{8}-\d{6}-[0-9a-f]{8}$/);
  await expect(page.getByLabel('Compare run A').locator(`option[value="${runId}"]`)).toHaveCount(1, { timeout: 10_000 });
  const ids = await page.getByLabel('Compare run A').locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
  expect(new Set(ids).size).toBe(ids.length);
  await ui.screenshot('ui-bench-done');

  // Compare the run with itself: the delta table and the overlaid A/B charts, which fit their cards at 1024 px.
  await page.getByLabel('Compare run A').selectOption(runId);
  await page.getByLabel('Compare run B').selectOption(runId);
  await expect(page.getByTestId('bench-deltas').locator('tbody tr')).toHaveCount(1);
  await expect(page.getByTestId('bench-deltas').locator('tbody tr td').nth(4)).toHaveText(/^(\+0\.00%|—)$/); // — when a loaded machine completed nothing in the window
  const charts = page.getByTestId('bench-compare-charts');
  await expect(charts.getByTestId('compare-chart-throughput')).toHaveAttribute('data-num-points', '1');
  await expect(charts.locator('.recharts-wrapper')).toHaveCount(2);
  for (const width of [1440, 1024]) {
    await page.setViewportSize({ width, height: width === 1440 ? 900 : 700 });
    for (const id of ['compare-chart-throughput', 'compare-chart-latency']) {
      // The chart re-measures its card after a resize (ResizeObserver), so poll; the overflow is in px.
      const overflowPx = () =>
        charts.getByTestId(id).evaluate((fig) => {
          const svg = fig.querySelector('svg.recharts-surface');
          return svg ? Math.max(0, svg.getBoundingClientRect().right - fig.getBoundingClientRect().right) : Infinity;
        });
      await expect.poll(overflowPx, { message: `${id} fits its card at ${width} px` }).toBeLessThanOrEqual(1);
    }
    await charts.scrollIntoViewIfNeeded();
    await ui.screenshot(`ui-bench-compare-${width}`);
  }
});
