/**
 * The studio in a browser tab survives its host going away and coming back: while the host is
 * stopped the tab says it is disconnected, Generate is off, and so is the Timeline's Export (main
 * encodes it) while WAV float (written in the tab) stays on; an area opened meanwhile says its
 * code could not be loaded (no blank page); after the restart the tab says it is signed out (the
 * host forgot its session) and asks for the new sign-in link; once that link is opened in another
 * tab, this one reconnects by itself, without a reload, and the area loads.
 */
import { test, expect } from '@playwright/test';
import { E2E_PORT } from '../playwright.config';
import { createRestartableHost } from './fixtures/restartable-host';
import { TWO_TURN_SSML, generateAndWaitForRegions, setDocument } from './ui-helpers';

// Its own host, away from the suite's (E2E_PORT) and the hub the models spec serves (E2E_PORT + 7).
const host = createRestartableHost(E2E_PORT + 13);

test.afterAll(async () => host.stop());

test('an open tab recovers from a host restart without a blank page', async ({ page, context }) => {
  test.setTimeout(360_000);
  const firstLink = await host.start();
  await page.goto(firstLink);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('engine-status')).toContainText('Engine ready', { timeout: 120_000 });
  // A clip on the Timeline, made while the host is there.
  await page.getByTestId('nav-timeline').click();
  await setDocument(page, TWO_TURN_SSML);
  await generateAndWaitForRegions(page, 2);
  await expect(page.getByTestId('export-audio')).toBeEnabled();
  await page.getByTestId('nav-speak').click();
  await expect(page.getByTestId('speak-generate')).toBeEnabled();
  // Survives only if the tab is never reloaded.
  await page.evaluate(() => ((window as unknown as { tabMarker: string }).tabMarker = 'same tab'));

  await host.stop();
  const banner = page.getByTestId('connection-banner');
  await expect(banner).toHaveAttribute('data-state', 'disconnected');
  await expect(banner).toContainText('Reconnecting by itself');
  await expect(page.getByTestId('engine-status')).toHaveText('Disconnected');
  await expect(page.getByTestId('speak-generate')).toBeDisabled();
  await page.getByTestId('nav-timeline').click();
  await expect(page.getByTestId('export-audio')).toBeDisabled();
  await expect(page.getByTestId('export-audio')).toHaveAttribute('title', /^Disconnected from the studio host/);
  await expect(page.getByTestId('export-wavf32')).toBeEnabled();

  // An area whose code was never loaded, opened while the host is away: it says so, the shell stays.
  await page.getByTestId('nav-library').click();
  const areaError = page.getByTestId('area-error');
  await expect(areaError).toContainText('The Library area could not be loaded');
  await expect(areaError.getByRole('button', { name: 'Reload page' })).toBeVisible();
  await expect(page.getByTestId('nav-speak')).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/ui-host-away.png', fullPage: true });

  const secondLink = await host.start();
  expect(secondLink).not.toBe(firstLink); // a new one-time link per start
  await expect(banner).toHaveAttribute('data-state', 'signed-out', { timeout: 30_000 });
  await expect(banner).toContainText('Open the new sign-in link printed by the terminal');
  await expect(page.getByTestId('engine-status')).toHaveText('Signed out');
  await page.screenshot({ path: 'test-results/screenshots/ui-host-signed-out.png', fullPage: true });

  // The user opens the new link, here in another tab of the same browser: this tab needs nothing more.
  const signIn = await context.newPage();
  await signIn.goto(secondLink);
  await expect(signIn).toHaveURL(/\/$/);
  await signIn.close();

  await expect(banner).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByTestId('engine-status')).toContainText('Engine ready', { timeout: 60_000 });
  await expect(areaError).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByTestId('library-favourites-only')).toBeVisible();
  await page.getByTestId('nav-timeline').click();
  await expect(page.getByTestId('generate')).toBeEnabled();
  await expect(page.locator('.cm-content')).toBeVisible();
  await expect(page.getByTestId('export-audio')).toBeEnabled();
  expect(await page.evaluate(() => (window as unknown as { tabMarker?: string }).tabMarker)).toBe('same tab');
});
