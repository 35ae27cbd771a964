/**
 * Shared by the three user walks (walk-designer/creator/tester.spec.ts): the two window sizes each
 * walk runs at, a screenshot step that attaches the picture to the test's output, and (with
 * STUDIO_README_SHOTS=1, at 1440×900 only) also writes it to docs/screenshots/ for the README.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page, TestInfo } from '@playwright/test';

export const WALK_VIEWPORTS = [
  { width: 1024, height: 700 },
  { width: 1440, height: 900 },
] as const;

/** The size the README's screenshots are taken at. */
const README_VIEWPORT_WIDTH = 1440;
const README_SHOTS_DIR = path.resolve('docs', 'screenshots');

/** An id for files and titles: "1024x700". */
export function viewportLabel(viewport: { width: number; height: number }): string {
  return `${viewport.width}x${viewport.height}`;
}

/**
 * Screenshots the page (its full length) into the test's output folder and attaches it to the report;
 * `readmeName`, when given and STUDIO_README_SHOTS=1 at 1440 px, also writes the visible window to
 * docs/screenshots/<readmeName>.png.
 */
export async function walkShot(page: Page, testInfo: TestInfo, name: string, readmeName?: string): Promise<void> {
  const viewport = page.viewportSize();
  const label = viewport ? viewportLabel(viewport) : 'unknown';
  const file = testInfo.outputPath(`${name}-${label}.png`);
  await page.mouse.move(0, 0); // no hover tooltips in the picture
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(`${name}-${label}`, { path: file, contentType: 'image/png' });
  if (readmeName && process.env.STUDIO_README_SHOTS === '1' && viewport?.width === README_VIEWPORT_WIDTH) {
    mkdirSync(README_SHOTS_DIR, { recursive: true });
    await page.screenshot({ path: path.join(README_SHOTS_DIR, `${readmeName}.png`) });
  }
}

/** Types `text` key by key into a cleared field, as a user does (no paste, no fill). */
export async function typeInto(field: Locator, text: string): Promise<void> {
  await field.click();
  await field.press('ControlOrMeta+a');
  await field.press('Backspace');
  await field.pressSequentially(text);
}

/** The first `numTurns` timeline regions' labels and fills, in turn order. */
export async function turnRegions(page: Page, numTurns: number): Promise<{ label: string; color: string }[]> {
  const out: { label: string; color: string }[] = [];
  for (let i = 0; i < numTurns; i++) {
    const region = page.getByTestId('waveform').locator(`[part="region turn-${i}"]`);
    out.push({ label: (await region.locator('[part="region-content"]').textContent()) ?? '', color: await region.evaluate((el) => getComputedStyle(el).backgroundColor) });
  }
  return out;
}

/** Drags the waveform part `selector` by `dxPx` in four mouse moves. */
export async function dragBy(page: Page, selector: string, dxPx: number): Promise<void> {
  const target = page.getByTestId('waveform').locator(selector);
  // The regions are drawn again after an edit: wait until the part is laid out.
  let box: Awaited<ReturnType<typeof target.boundingBox>> = null;
  for (let i = 0; i < 20 && !box; i++) {
    await target.waitFor();
    box = await target.boundingBox();
    if (!box) await page.waitForTimeout(100);
  }
  if (!box) throw new Error(`nothing to drag at ${selector}`);
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (const f of [0.25, 0.5, 0.75, 1]) await page.mouse.move(x + dxPx * f, y);
  await page.mouse.up();
}
