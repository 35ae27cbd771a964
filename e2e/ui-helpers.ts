/**
 * User-level helpers for the UI end-to-end specs: replace the editor's document, generate and
 * wait for the timeline's regions, wait for the engine.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';

export const TWO_TURN_SSML = `<speak>
  <voice name="ryan">Hello from the first turn.</voice>
  <break time="120ms"/>
  <voice name="vivian"><prosody rate="90%">And the second turn.</prosody></voice>
</speak>`;

export async function waitForEngine(page: Page): Promise<void> {
  await expect(page.getByTestId('engine-status')).toContainText('Engine ready', { timeout: 120_000 });
}

/** Selects everything in the editor and inserts `text` as one input (no auto-closed tags). */
export async function setDocument(page: Page, text: string): Promise<void> {
  const content = page.locator('.cm-content');
  await content.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

export async function generateAndWaitForRegions(page: Page, numRegions: number): Promise<void> {
  await page.getByTestId('generate').click();
  await expect(page.getByTestId('waveform')).toHaveAttribute('data-num-regions', String(numRegions), { timeout: 90_000 });
}

/**
 * A fresh browser profile on a host that earlier specs used is offered their unsaved project;
 * autosave waits for the answer, so specs that need autosave discard it first.
 */
export async function discardLeftoverRecovery(page: Page): Promise<void> {
  const prompt = page.getByTestId('recovery-prompt');
  const shown = await prompt.waitFor({ state: 'visible', timeout: 2_000 }).then(() => true, () => false);
  if (shown) await prompt.getByRole('button', { name: 'Discard' }).click();
}

/**
 * A fresh folder inside the e2e host's `<data>/imports`, the one place a client may name a model folder
 * from (other paths are refused like a missing folder: README, Security). Removed by the caller.
 */
export function importsTempFolder(prefix: string): string {
  const port = Number(process.env.STUDIO_E2E_PORT ?? 7871);
  const imports = path.resolve('.cache', `e2e-data-${port}`, 'imports');
  mkdirSync(imports, { recursive: true });
  return mkdtempSync(path.join(imports, prefix));
}
