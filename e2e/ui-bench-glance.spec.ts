/**
 * The benchmark read at a glance (issue 46, item 5): a short run with 1 client is named by its
 * config and start time, the live charts shade its phases, each chart has one unit with even
 * ticks, and hovering one chart moves the crosshair on all. Screenshots at 1024×700 and 1440×900.
 */
import type { Locator } from '@playwright/test';
import { test, expect } from './fixtures/app';
import { waitForEngine } from './ui-helpers';

const VIEWPORTS = [
  { width: 1024, height: 700 },
  { width: 1440, height: 900 },
];

/** The y axis's tick values, top to bottom read as numbers. */
async function yTicks(chart: Locator): Promise<number[]> {
  const texts = await chart.locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value').allTextContents();
  return texts.map(Number).sort((a, b) => a - b);
}

test('a short run is named, its phases are shaded, axes read evenly and the crosshair is shared', async ({ ui }, testInfo) => {
  test.setTimeout(240_000);
  const { page } = ui;
  await waitForEngine(page);
  await ui.openArea('bench');
  await page.getByLabel('Client counts').fill('1');
  await page.getByLabel('Window seconds').fill('3');
  await page.getByLabel('Passes').fill('1');
  await page.getByTestId('bench-start').click();

  // The name: variant, workload, clients, window × passes, and the start time.
  const name = page.getByTestId('bench-run-name');
  await expect(name).toHaveText(/^before · plain · 1 client · 3 s × 1 · [A-Z][a-z]{2} \d{1,2} \d{2}:\d{2}$/);

  // Phase bands behind every live chart; the legend says what they mean.
  const throughput = page.getByTestId('chart-throughput');
  await expect.poll(async () => Number(await throughput.getAttribute('data-num-bands')), { timeout: 90_000 }).toBeGreaterThan(1);
  await expect(throughput.locator('.phase-band').first()).toBeAttached();
  await expect(page.getByTestId('chart-latency').locator('.phase-band').first()).toBeAttached();
  await expect(page.getByTestId('bench-phase-legend')).toContainText('window');

  // One unit per chart: no chart mixes req/s with audio s/s, or % with MiB.
  for (const [id, unit] of [['chart-throughput', 'req/s'], ['chart-audio', 'audio s/s'], ['chart-latency', 's'], ['chart-queue', 'requests'], ['chart-gpu', '%'], ['chart-vram', 'MiB']] as const) {
    await expect(page.getByTestId(id)).toHaveAttribute('data-unit', unit);
    // without nvidia-smi (CI) the GPU and VRAM places say why instead of drawing an empty chart
    const gpuPlace = id === 'chart-gpu' || id === 'chart-vram';
    const noSampler = gpuPlace && (await page.getByTestId(id).getByText(/no GPU sampler/).count()) > 0;
    if (noSampler) await expect(page.getByTestId(id)).toContainText(/no GPU sampler: \S/);
    else await expect(page.getByTestId(id).locator('.recharts-legend-item')).toHaveCount(id === 'chart-latency' || id === 'chart-queue' ? 2 : 1);
  }

  await expect(page.getByTestId('bench-status')).toContainText('done', { timeout: 180_000 });
  await expect(page.getByTestId('bench-run-name')).toBeVisible();
  // A window that finished no request says so and names the fix; one that finished fewer than 10 says
  // how far its req/s may be off; 10 or more need no warning.
  const passReqPerS = Number(await page.getByTestId('bench-passes').locator('tbody tr td').nth(4).textContent());
  const completed = Math.round(passReqPerS * 3);
  if (completed === 0) await expect(page.getByTestId('bench-window-warning')).toContainText('finished no request');
  else if (completed < 10) await expect(page.getByTestId('bench-window-warning')).toContainText(`The 3 s window finished only ${completed} request${completed === 1 ? '' : 's'} in its pass`);
  else await expect(page.getByTestId('bench-window-warning')).toHaveCount(0);

  // Even ticks: every step between y ticks is the same.
  for (const id of ['chart-throughput', 'chart-queue']) {
    const ticks = await yTicks(page.getByTestId(id));
    expect(ticks.length, `${id} has ticks`).toBeGreaterThanOrEqual(2);
    const step = ticks[1] - ticks[0];
    for (let i = 2; i < ticks.length; i++) expect(ticks[i] - ticks[i - 1], `${id} ticks ${ticks.join(', ')}`).toBeCloseTo(step, 6);
  }
  // The x axis reads in seconds.
  await expect(throughput.locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value').first()).toHaveText(/^\d+(\.\d+)? s$/);

  // A shared crosshair: hovering the throughput chart shows the cursor on the latency chart too.
  const plot = throughput.locator('.recharts-wrapper');
  const hoverPlot = async () => {
    const box = (await plot.boundingBox())!;
    await plot.hover({ position: { x: box.width * 0.6, y: box.height * 0.4 } });
  };
  await hoverPlot();
  await expect(throughput.locator('.recharts-tooltip-cursor')).toHaveCount(1);
  await expect(page.getByTestId('chart-latency').locator('.recharts-tooltip-cursor')).toHaveCount(1);

  // Past runs are listed by name, not by id alone.
  await expect(page.getByLabel('Compare run A').locator('option').nth(1)).toHaveText(/^before · plain · 1 client · 3 s × 1 · .* \(done\)$/);

  // The run compared with itself: the A/B charts read in even ticks too, and the summary names the run.
  await expect(page.getByTestId('bench-summary').locator('caption')).toHaveText(/^Summary · before · plain · 1 client · 3 s × 1 · .* · done$/);
  const runId = (await page.locator('[data-testid^="bench-tables-"]').first().getAttribute('data-testid'))!.slice('bench-tables-'.length);
  await page.getByLabel('Compare run A').selectOption(runId);
  await page.getByLabel('Compare run B').selectOption(runId);
  // (the p95 chart has no bars when, as here, no pass finished a request)
  for (const id of ['compare-chart-throughput']) {
    const ticks = await yTicks(page.getByTestId(id));
    expect(ticks.length, `${id} has ticks`).toBeGreaterThanOrEqual(2);
    for (let i = 2; i < ticks.length; i++) expect(ticks[i] - ticks[i - 1], `${id} ticks ${ticks.join(', ')}`).toBeCloseTo(ticks[1] - ticks[0], 6);
  }

  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await name.scrollIntoViewIfNeeded();
    await page.mouse.move(0, 0);
    await hoverPlot();
    await expect(page.getByTestId('chart-queue').locator('.recharts-tooltip-cursor')).toHaveCount(1);
    await page.screenshot({ path: testInfo.outputPath(`bench-glance-${viewport.width}x${viewport.height}.png`), fullPage: true });
  }
});
