/**
 * The speaker-aware Timeline (issue 46, item 2): a two-speaker SSML document's regions are named
 * after their speakers, one colour per speaker; Fit shows the whole clip in the width; editing
 * the document marks the audio out of date; dragging a region's name moves the gap before it and
 * its edge trims; keys per turn (2, N, [, ]) reach turn 2, make a take and step between takes;
 * and after a gap edit and Save, re-opening the clip
 * from the Library (from a new project) brings back the same speakers, colours and gap.
 * Screenshots at 1024×700 and 1440×900 (the audio is noise: the embedded tiny model).
 */
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures/app';
import { discardLeftoverRecovery, generateAndWaitForRegions, setDocument, waitForEngine } from './ui-helpers';

const MARK = `speakers-${Date.now().toString(36)}`;
const DOC = `<speak>
  <voice name="ryan">Ryan opens ${MARK}.</voice>
  <break time="150ms"/>
  <voice name="vivian">Vivian answers.</voice>
  <voice name="ryan">Ryan closes.</voice>
</speak>`;

/** Each turn region's label and fill, in turn order. */
async function regionsOf(page: Page): Promise<{ label: string; color: string }[]> {
  const out: { label: string; color: string }[] = [];
  for (const i of [0, 1, 2]) {
    const region = page.getByTestId('waveform').locator(`[part="region turn-${i}"]`);
    out.push({ label: (await region.locator('[part="region-content"]').textContent()) ?? '', color: await region.evaluate((el) => getComputedStyle(el).backgroundColor) });
  }
  return out;
}

async function shoot(page: Page, name: string, outputPath: (name: string) => string): Promise<void> {
  for (const viewport of [{ width: 1024, height: 700 }, { width: 1440, height: 900 }]) {
    await page.setViewportSize(viewport);
    await page.getByTestId('zoom-fit').click(); // the whole clip at this width
    await page.getByTestId('waveform').scrollIntoViewIfNeeded();
    await page.screenshot({ path: outputPath(`${name}-${viewport.width}x${viewport.height}.png`), fullPage: true });
  }
}

test('regions are named and coloured by speaker, fit to width, marked stale, and re-open keeps them', async ({ ui }, testInfo) => {
  test.setTimeout(240_000);
  const { page } = ui;
  await waitForEngine(page);
  await discardLeftoverRecovery(page);
  await ui.openArea('timeline');
  await page.getByLabel('Project name').fill(`Speakers ${MARK}`);
  await setDocument(page, DOC);
  await expect(page.getByTestId('turn-count')).toHaveText('3 turns', { timeout: 10_000 });
  await generateAndWaitForRegions(page, 3);

  // Named by speaker (not "Turn N"), one colour per speaker: Ryan's two turns share one, Vivian's differs.
  await expect.poll(async () => (await regionsOf(page)).map((r) => r.label)).toEqual(['Ryan', 'Vivian', 'Ryan']);
  const regions = await regionsOf(page);
  expect(regions[0].color).toBe(regions[2].color);
  expect(regions[1].color).not.toBe(regions[0].color);
  await expect(page.getByTestId('speaker-legend')).toHaveText(/Ryan\s+Vivian/);
  await expect(page.getByTestId('timeline-stale')).toHaveCount(0);

  // Fit: the whole clip in the width, no horizontal scroll.
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await page.getByRole('button', { name: 'Zoom in' }).click();
  const overflowPx = () => page.getByTestId('waveform').locator('[part="scroll"]').evaluate((el) => el.scrollWidth - el.clientWidth);
  await expect.poll(overflowPx).toBeGreaterThan(0);
  await page.getByTestId('zoom-fit').click();
  await expect.poll(overflowPx).toBeLessThanOrEqual(1);

  // Drag: turn 2 by its name moves the gap before it; turn 1's right edge trims its end.
  const dragBy = async (selector: string, dxPx: number) => {
    const box = (await page.getByTestId('waveform').locator(selector).boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    for (const f of [0.25, 0.5, 0.75, 1]) await page.mouse.move(box.x + box.width / 2 + dxPx * f, box.y + box.height / 2);
    await page.mouse.up();
  };
  await dragBy('[part="region turn-1"] [part~="region-content"]', 60);
  await expect.poll(async () => Number(await page.getByTestId('gap-1').inputValue())).toBeGreaterThan(150 + 100); // was the 150 ms break
  await expect(page.getByTestId('waveform')).toHaveAttribute('data-num-regions', '3');
  await dragBy('[part="region turn-0"] [part*="region-handle-right"]', -40);
  await expect.poll(async () => Number(await page.getByTestId('trim-end-0').inputValue())).toBeGreaterThan(100);
  await expect(page.getByTestId('undo')).toBeEnabled();

  // Keys per turn: 2 goes to turn 2, N makes a new take there, [ and ] step between its takes.
  await page.getByRole('heading', { name: 'Timeline' }).click();
  await page.keyboard.press('2');
  await expect(page.getByTestId('turn-1').locator('button').first()).toBeFocused();
  const takes = page.getByTestId('turn-1').getByRole('radio');
  await expect(takes).toHaveCount(1);
  await page.keyboard.press('n');
  await expect(takes).toHaveCount(2, { timeout: 90_000 });
  await expect(takes.nth(1)).toBeChecked();
  await page.getByTestId('turn-1').locator('button').first().focus();
  await page.keyboard.press('[');
  await expect(takes.nth(0)).toBeChecked();
  await page.keyboard.press(']');
  await expect(takes.nth(1)).toBeChecked();
  await expect.poll(async () => (await regionsOf(page)).map((r) => r.label)).toEqual(['Ryan', 'Vivian', 'Ryan']); // the new take keeps its speaker

  // A gap edit, saved with the project.
  await page.getByTestId('gap-1').fill('800');
  await page.getByTestId('project-save').click();
  await expect(page.getByTestId('save-state')).toContainText('saved');
  await shoot(page, 'timeline-speakers', (n) => testInfo.outputPath(n));

  // The document changes after the audio was made: the timeline says it is out of date.
  await page.locator('.cm-content').click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.insertText('\n<!-- edited -->');
  await expect(page.getByTestId('timeline-stale')).toContainText('Out of date');
  await expect(page.locator('.waveform-wrap')).toHaveAttribute('data-stale', 'true');
  await shoot(page, 'timeline-stale', (n) => testInfo.outputPath(n));

  // A new project, then Re-open from the Library (zoomed in, in a narrower window): the saved project comes back as it was, fitted.
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await page.setViewportSize({ width: 1024, height: 700 });
  await page.getByTestId('project-new').click();
  const confirm = page.getByTestId('project-confirm');
  if (await confirm.isVisible().catch(() => false)) await confirm.getByRole('button', { name: 'Discard and start new' }).click();
  await expect(page.getByLabel('Project name')).toHaveValue('Untitled project');
  await ui.openArea('library');
  await page.getByLabel('Search clips').fill(MARK);
  const entry = page.getByTestId('library-clip');
  await expect(entry).toHaveCount(1);
  await entry.getByRole('button', { name: /^Re-open .* in the editor$/ }).click();
  const yes = entry.getByRole('button', { name: /^Yes, re-open/ });
  if (await yes.isVisible().catch(() => false)) await yes.click();
  await expect(page.getByTestId('nav-timeline')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('waveform')).toHaveAttribute('data-num-regions', '3', { timeout: 30_000 });
  await expect(page.getByLabel('Project name')).toHaveValue(`Speakers ${MARK}`);
  await expect.poll(async () => (await regionsOf(page)).map((r) => r.label)).toEqual(['Ryan', 'Vivian', 'Ryan']);
  expect(await regionsOf(page)).toEqual(regions);
  await expect.poll(overflowPx, { message: 'a re-opened clip wider than the view is fitted to it' }).toBeLessThanOrEqual(1);
  await expect(page.getByTestId('gap-1')).toHaveValue('800');
  await expect(takes).toHaveCount(2);
  await expect(takes.nth(1)).toBeChecked();
  await expect(page.getByTestId('timeline-stale')).toHaveCount(0);
  await shoot(page, 'timeline-reopened', (n) => testInfo.outputPath(n));
});
