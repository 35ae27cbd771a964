/**
 * The voice library as a user meets it: with the CustomVoice test model the Speak screen says which
 * checkpoint cloning needs; a tiny synthetic Base checkpoint (written here, imported and built on the
 * Models page) clones a voice in-context from an MP3 clip picked in the file field (heard first in its
 * player; recording from the microphone is offered) and its transcript; the saved voice speaks from
 * the Speak screen and appears in the HTTP API's GET /v1/voices (and speaks there by id); a second
 * clip added as a sample is picked as the one it speaks with (the API says so too); a delete
 * asks first and can be undone. Leaves the host on the embedded model for the specs after it.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { test, expect } from './fixtures/app';
import { waitForEngine, importsTempFolder } from './ui-helpers';
import { E2E_TOKEN } from '../playwright.config';
import { execFileSync } from 'node:child_process';

const CLIP = path.resolve('src-main', 'audio', 'fixtures', 'clip-stereo-44k.mp3');
const OTHER_CLIP = path.resolve('src-main', 'audio', 'fixtures', 'clip-mono-16k.flac');
let tmp: string | null = null;
test.afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

test.use({ viewport: { width: 1440, height: 900 } });

test('import a clip, save a voice, speak with it, and find it in /v1/voices', async ({ ui, request }, testInfo) => {
  test.skip(Boolean(testInfo.project.metadata?.electronPath), 'the API check needs the headless host');
  test.setTimeout(300_000);
  const { page } = ui;
  await waitForEngine(page);

  // The embedded CustomVoice model cannot clone: the screen names the checkpoint to pull.
  await ui.openArea('speak');
  await page.getByTestId('voice-clone').locator('summary').click();
  await expect(page.getByTestId('voice-clone-needs')).toContainText('needs a Base checkpoint: pull Qwen3-TTS-12Hz-0.6B-Base');

  // A tiny synthetic Base checkpoint, imported and built on the Models page, then used.
  tmp = importsTempFolder('studio-e2e-base-');
  const folder = path.join(tmp, 'tiny-base');
  execFileSync(process.execPath, ['out/main/cli.js', 'model', 'synth', '--out', folder, '--size', 'tiny', '--type', 'base'], { stdio: 'ignore' });
  await ui.openArea('models');
  await page.getByTestId('import-path').fill(folder);
  await page.getByTestId('import-check').click();
  await expect(page.getByTestId('pull-confirm')).toContainText(`Import ${folder}?`);
  await page.getByTestId('pull-confirm-go').click();
  const row = page.locator('tr', { hasText: folder });
  await expect(row.getByTestId('model-status')).toHaveText(/^ready/, { timeout: 180_000 });
  await row.getByRole('button', { name: 'Use' }).click();
  await expect(row.getByTestId('model-active')).toBeVisible({ timeout: 120_000 });
  await waitForEngine(page);

  // Clone from a clip picked in the file field, save it under a name: it becomes the speaker.
  await ui.openArea('speak');
  await page.getByTestId('voice-clone').locator('summary').click();
  await page.getByTestId('voice-clone-name').fill('Anna E2E');
  await page.getByTestId('voice-clone-file').setInputFiles({ name: 'anna.mp3', mimeType: 'audio/mpeg', buffer: readFileSync(CLIP) });
  // The clip can be heard before it is cloned; its length is read from the file.
  await expect(page.getByLabel('Play the reference clip')).toHaveAttribute('src', /^blob:/);
  await expect(page.getByTestId('voice-clone-reference')).toContainText(/anna\.mp3 · \d+\.\d s/);
  // Loopback is a secure page: Chromium offers to record from the microphone here.
  await expect(page.getByTestId('voice-record-start')).toBeEnabled();
  await page.getByTestId('voice-clone-text').fill('A steady tone for two seconds.'); // the transcript: in-context cloning
  await page.getByTestId('voice-clone-save').click();
  const saved = page.getByTestId('saved-voice-list').locator('li', { hasText: 'Anna E2E' });
  await expect(saved).toContainText('cloned in-context');
  await expect(saved.getByTestId('saved-voice-use')).toHaveText('In use');
  await expect(page.getByTestId('speak-will-use')).toContainText('will use Anna E2E');
  const id = (await saved.getAttribute('data-testid'))!.replace('saved-voice-', '');
  expect(id).toMatch(/^v-[0-9a-f]{12}$/);
  await expect(page.getByTestId('speak-speaker')).toHaveValue(id);

  // Speak with it.
  await page.getByTestId('speak-input').fill('Hello from a cloned voice.');
  await page.getByTestId('speak-generate').click();
  await expect(page.getByTestId('speak-result')).toBeVisible({ timeout: 90_000 });
  await expect(page.getByTestId('speak-used-voice')).toHaveText('Anna E2E');
  await ui.screenshot('ui-voice-library-1440');

  // The HTTP API lists it and speaks it by id.
  const auth = { authorization: `Bearer ${E2E_TOKEN}` };
  const voices = await (await request.get('/v1/voices', { headers: auth })).json();
  expect(voices.saved).toEqual([expect.objectContaining({ id, name: 'Anna E2E', kind: 'clone', cloneMode: 'icl' })]);
  const speech = await request.post('/v1/audio/speech', { headers: auth, data: { input: 'Hi.', voice: id, response_format: 'wav' } });
  expect(speech.status()).toBe(200);

  // Another clip of the same voice: added as a second sample, it changes nothing until picked.
  const samples = saved.getByTestId('saved-voice-samples');
  await samples.locator('summary').click();
  await expect(samples.getByTestId('saved-voice-sample')).toHaveCount(1);
  await samples.getByTestId('saved-voice-sample-file').setInputFiles({ name: 'anna-2.flac', mimeType: 'audio/flac', buffer: readFileSync(OTHER_CLIP) });
  await samples.getByTestId('saved-voice-sample-add').click();
  await expect(samples.getByTestId('saved-voice-sample')).toHaveCount(2, { timeout: 60_000 });
  const second = samples.getByTestId('saved-voice-sample').filter({ hasText: 'anna-2.flac' });
  await expect(samples.getByTestId('saved-voice-sample').filter({ hasText: 'anna.mp3' })).toContainText('speaks');
  await expect(second).not.toContainText('speaks');
  await second.getByTestId('saved-voice-sample-use').click(); // the radio follows the library's answer
  await expect(second).toContainText('speaks');
  await expect(samples.getByTestId('saved-voice-sample').filter({ hasText: 'anna.mp3' })).not.toContainText('speaks');
  const listed = await (await request.get('/v1/voices', { headers: auth })).json();
  expect(listed.saved[0].samples).toHaveLength(2);
  expect(listed.saved[0].activeSampleId).toBe(listed.saved[0].samples[1].sampleId);

  // Delete asks first, and Undo keeps the voice.
  await saved.getByTestId('saved-voice-delete').click();
  await saved.getByTestId('saved-voice-delete-confirm').click();
  await expect(page.getByTestId('voice-undo-bar')).toContainText('Deleted “Anna E2E”');
  await page.getByTestId('voice-undo').click();
  await expect(page.getByTestId('saved-voice-list').locator('li', { hasText: 'Anna E2E' })).toBeVisible();

  // Back to the embedded model for the specs that follow.
  await ui.openArea('models');
  await page.getByTestId('use-embedded:tiny').click();
  await expect(page.getByTestId('model-embedded:tiny').getByTestId('model-active')).toBeVisible({ timeout: 120_000 });
  await waitForEngine(page);
});
