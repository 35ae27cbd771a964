/**
 * Visual prosody and the lexicon editor, end to end: on Speak in SSML mode select words, move the
 * rate and pitch sliders and Apply, insert a pause — the editor holds standard SSML, the words carry a
 * tinted mark with a badge, the live check finds no problem; give "W3C" an alias on every occurrence,
 * preview it with the current voice, see both listed, remove one; Generate speaks the result. On the
 * Timeline's editor: emphasis and an X-SAMPA phoneme (its quote escaped), edited from the list.
 * Screenshots at 1440×900 and 1024×700, attached to the test output.
 */
import type { Page, TestInfo } from '@playwright/test';
import { test, expect, type StudioUi } from './fixtures/app';
import { setDocument, waitForEngine } from './ui-helpers';

const SPEAK_DOC = '<speak>The W3C wrote this. Ask the W3C again, slowly.</speak>';
const TIMELINE_DOC = '<speak>I say pecan, you say pecan.</speak>';

/** Selects `length` characters from `offset` in the editor with the keyboard, as a user would. */
async function selectRange(page: Page, offset: number, length: number): Promise<void> {
  await page.locator('.cm-content').click();
  await page.keyboard.press('ControlOrMeta+Home');
  for (let i = 0; i < offset; i++) await page.keyboard.press('ArrowRight');
  for (let i = 0; i < length; i++) await page.keyboard.press('Shift+ArrowRight');
}

/** A mark's badge in the editor by what it says (drawn from data-label, so the editor's text stays the document's). */
function badge(page: Page, label: string) {
  return page.getByTestId('mark-badge').and(page.locator(`[data-label=${JSON.stringify(label)}]`));
}

async function attachScreenshot(ui: StudioUi, testInfo: TestInfo, name: string): Promise<void> {
  const file = await ui.screenshot(name);
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

test.use({ colorScheme: 'light', viewport: { width: 1440, height: 900 } });

test('Speak: prosody and pauses from the panel, an alias on every occurrence with preview, marks in the text', async ({ ui }, testInfo) => {
  const { page } = ui;
  await waitForEngine(page);
  await ui.openArea('speak');
  await page.getByRole('radiogroup', { name: 'Text format' }).getByLabel('SSML').check();
  await expect(page.getByTestId('speak-ssml-editor')).toBeVisible();
  await setDocument(page, SPEAK_DOC);

  // Nothing selected: the panel says what to do and the document stays as it was.
  await page.getByTestId('tune-apply').click();
  await expect(page.getByTestId('tune-message')).toContainText('Select the words');

  await selectRange(page, SPEAK_DOC.indexOf('again'), 'again, slowly'.length);
  await page.getByTestId('tune-rate').fill('-20');
  await page.getByTestId('tune-pitch').fill('-2');
  await page.getByTestId('tune-apply').click();
  const content = page.locator('.cm-content');
  await expect(content).toContainText('<prosody rate="-20%" pitch="-2st">again, slowly</prosody>');
  await expect(page.locator('.cm-mark-prosody')).toHaveText('again, slowly');
  await expect(badge(page, 'rate -20% · pitch -2st')).toBeVisible();
  await page.getByTestId('tune-break-ms').fill('400');
  await page.getByTestId('tune-break-insert').click();
  await expect(content).toContainText('again, slowly<break time="400ms"/></prosody>');
  await expect(badge(page, 'pause 400ms')).toBeVisible();

  // The lexicon: W3C said as words, previewed, applied to both occurrences.
  await selectRange(page, SPEAK_DOC.indexOf('W3C'), 3);
  await expect(page.getByTestId('lexicon-word')).toHaveText('“W3C”');
  await page.getByTestId('lexicon-alias').fill('World Wide Web Consortium');
  await page.getByTestId('lexicon-preview').click();
  await expect(page.getByTestId('lexicon-preview')).toHaveText('Preview', { timeout: 60_000 });
  await expect(page.getByTestId('speak-error')).toHaveCount(0);
  await page.getByTestId('lexicon-everywhere').check();
  await page.getByTestId('lexicon-apply').click();
  await expect(page.getByTestId('lexicon-message')).toContainText('Applied to 2 occurrences');
  await expect(page.getByTestId('lexicon-entry')).toHaveCount(2);
  await expect(page.locator('.cm-mark-sub')).toHaveCount(2);
  await expect(page.getByTestId('ssml-diagnostics')).toHaveCount(0);
  await attachScreenshot(ui, testInfo, 'prosody-lexicon-speak-1440');

  await page.getByTestId('lexicon-remove').first().click();
  await expect(page.getByTestId('lexicon-entry')).toHaveCount(1);
  await expect(content).toContainText('The W3C wrote this. Ask the <sub alias="World Wide Web Consortium">W3C</sub>');

  await page.getByTestId('speak-generate').click();
  await expect(page.getByTestId('speak-result')).toBeVisible({ timeout: 90_000 });
  await expect(page.getByTestId('speak-error')).toHaveCount(0);
  await page.setViewportSize({ width: 1024, height: 700 });
  await attachScreenshot(ui, testInfo, 'prosody-lexicon-speak-1024');
});

test('Timeline editor: emphasis and an X-SAMPA phoneme, edited from the list, at 1024×700', async ({ ui }, testInfo) => {
  const { page } = ui;
  await page.setViewportSize({ width: 1024, height: 700 });
  await waitForEngine(page);
  await ui.openArea('timeline');
  await setDocument(page, TIMELINE_DOC);
  await expect(page.getByTestId('turn-count')).toHaveText('1 turn', { timeout: 10_000 });

  await selectRange(page, TIMELINE_DOC.indexOf('you say'), 'you say'.length);
  await page.getByTestId('tune-emphasis').selectOption('strong');
  await page.getByTestId('tune-emphasis-apply').click();
  const content = page.locator('.cm-content');
  await expect(content).toContainText('<emphasis level="strong">you say</emphasis>');
  await expect(page.locator('.cm-mark-emphasis')).toHaveText('you say');

  await selectRange(page, TIMELINE_DOC.indexOf('pecan'), 2); // part of the word: the whole word is taken
  await expect(page.getByTestId('lexicon-word')).toHaveText('“pe”');
  await page.getByTestId('lexicon-kind').selectOption('phoneme');
  await page.getByTestId('lexicon-alphabet').selectOption('x-sampa');
  await page.getByTestId('lexicon-ph').fill('pI"kA:n');
  await page.getByTestId('lexicon-apply').click();
  await expect(content).toContainText('<phoneme alphabet="x-sampa" ph="pI&quot;kA:n">pecan</phoneme>');
  await expect(page.getByTestId('lexicon-entry')).toHaveCount(1);
  await expect(page.getByTestId('lexicon-entry')).toContainText('x-sampa /pI"kA:n/');
  await expect(badge(page, '/pI"kA:n/')).toBeVisible();

  // Edit it from the list: an alias instead.
  await page.getByRole('button', { name: 'Edit the pronunciation of pecan' }).click();
  await page.getByTestId('lexicon-kind').selectOption('sub');
  await page.getByTestId('lexicon-alias').fill('pee can');
  await page.getByTestId('lexicon-apply').click();
  await expect(content).toContainText('I say <sub alias="pee can">pecan</sub>, <emphasis level="strong">you say</emphasis> pecan.');
  await expect(page.getByTestId('lexicon-entry')).toContainText('says “pee can”');
  await expect(page.getByTestId('lexicon-word')).toHaveText('“pecan”'); // the word stays selected, without its markup
  await expect(page.getByTestId('ssml-diagnostics')).toHaveCount(0);
  await expect(page.getByTestId('turn-count')).toHaveText('1 turn', { timeout: 10_000 });
  await expect(page.getByTestId('generate')).toBeEnabled();
  await attachScreenshot(ui, testInfo, 'prosody-lexicon-timeline-1024');
  await page.setViewportSize({ width: 1440, height: 900 });
  await attachScreenshot(ui, testInfo, 'prosody-lexicon-timeline-1440');
});
