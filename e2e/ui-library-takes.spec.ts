/**
 * One Library entry per clip with its takes: a two-turn document is generated, turn 2 is
 * regenerated twice from the Timeline; the Library lists the clip once with "2 takes", the turn's
 * takes under it with the newest chosen (as in the Timeline), and choosing another take there is
 * kept (seen again after a reload). Re-open brings the takes back into the Timeline with that
 * choice, and a choice made there shows in the Library. Screenshot at 1440×900 light.
 */
import { test, expect } from './fixtures/app';
import { discardLeftoverRecovery, generateAndWaitForRegions, setDocument, waitForEngine } from './ui-helpers';

const MARK = `takes-${Date.now().toString(36)}`;
const DOC = `<speak>
  <voice name="ryan">First turn ${MARK}.</voice>
  <break time="100ms"/>
  <voice name="aiden">Second turn.</voice>
</speak>`;

test.use({ colorScheme: 'light', viewport: { width: 1440, height: 900 } });

test('regenerating a turn adds a take under the clip; a take is chosen in the Library', async ({ ui }) => {
  const { page } = ui;
  await waitForEngine(page);
  await discardLeftoverRecovery(page);
  await ui.openArea('timeline');
  await setDocument(page, DOC);
  await expect(page.getByTestId('turn-count')).toHaveText('2 turns', { timeout: 10_000 });
  await generateAndWaitForRegions(page, 2);
  const radios = page.getByTestId('turn-1').getByRole('radio');
  for (const n of [2, 3]) {
    await page.getByTestId('regenerate-1').click();
    await expect(radios).toHaveCount(n, { timeout: 90_000 });
  }

  await ui.openArea('library');
  await page.getByLabel('Search clips').fill(MARK);
  const entries = page.getByTestId('library-clip');
  await expect(entries).toHaveCount(1); // one entry per clip, not one per take
  await expect(entries.getByTestId('clip-takes-toggle')).toHaveText(/^2 takes/);
  await entries.getByTestId('clip-takes-toggle').click();
  const turn = page.getByTestId('clip-takes').getByTestId('clip-turn-1');
  await expect(turn.getByRole('radio')).toHaveCount(3); // original + 2 takes
  await expect(turn.getByRole('radio').nth(2)).toBeChecked(); // the newest take, as the Timeline chose
  await ui.screenshot('ui-library-takes-1440-light');
  await turn.getByRole('radio').nth(1).click(); // checked once the library answers
  await expect(turn.getByRole('radio').nth(1)).toBeChecked();

  await page.reload();
  await waitForEngine(page);
  await ui.openArea('library');
  await page.getByLabel('Search clips').fill(MARK);
  await page.getByTestId('library-clip').getByTestId('clip-takes-toggle').click();
  await expect(page.getByTestId('clip-takes').getByTestId('clip-turn-1').getByRole('radio').nth(1)).toBeChecked();

  // Re-open: the Timeline gets the turn's takes with the Library's choice; choosing there shows in the Library.
  // this test's clip only: other specs save clips into the same library while it runs
  const entry = page.getByTestId('library-clip').filter({ hasText: MARK });
  await entry.getByRole('button', { name: /^Re-open .* in the editor$/ }).click();
  const yes = entry.getByRole('button', { name: /^Yes, re-open/ });
  if (await yes.isVisible().catch(() => false)) await yes.click();
  await expect(page.getByTestId('nav-timeline')).toHaveAttribute('aria-current', 'page');
  await expect(radios).toHaveCount(3);
  await expect(radios.nth(1)).toBeChecked();
  await radios.nth(2).check();
  await ui.openArea('library');
  await page.getByLabel('Search clips').fill(MARK);
  await page.getByTestId('library-clip').getByTestId('clip-takes-toggle').click();
  await expect(page.getByTestId('clip-takes').getByTestId('clip-turn-1').getByRole('radio').nth(2)).toBeChecked();
});
