/**
 * The main loop end to end against the headless host: a two-turn SSML document, generate, two
 * regions, play, regenerate one turn and pick the new take, export a 16-bit WAV and check its header,
 * then export the same clip as MP3 through main's encoders and decode it.
 */
import { readFileSync } from 'node:fs';
import { MPEGDecoder } from 'mpg123-decoder';
import { test, expect } from './fixtures/app';
import { TWO_TURN_SSML, generateAndWaitForRegions, setDocument, waitForEngine } from './ui-helpers';

test('generates a two-turn document, plays it, keeps a new take and exports a WAV', async ({ ui }) => {
  const { page } = ui;
  const sent: string[] = []; // what the page sends the host over the WebSocket
  if (!test.info().project.metadata?.electronPath) {
    page.on('websocket', (ws) => ws.on('framesent', (f) => void sent.push(String(f.payload))));
    await page.goto('/');
  }
  await waitForEngine(page);
  await ui.openArea('voice');
  await expect(page.getByRole('radiogroup', { name: 'Speaker' }).getByRole('radio')).toHaveCount(9);
  await expect(page.getByTestId('model-synthetic-hint')).toContainText('random weights');
  await ui.screenshot('ui-voice');

  await ui.openArea('timeline');
  await setDocument(page, TWO_TURN_SSML);
  await expect(page.getByTestId('turn-count')).toHaveText('2 turns');
  await generateAndWaitForRegions(page, 2);
  await expect(page.getByTestId('turn-0')).toBeVisible();
  await expect(page.getByTestId('turn-1')).toBeVisible();
  await expect(page.getByTestId('queue').locator('[data-state="done"]')).toHaveCount(1);

  await page.getByTestId('play').click();
  await expect(page.getByTestId('play-state')).toContainText('playing', { timeout: 10_000 });
  await page.getByTestId('play').click();
  await expect(page.getByTestId('play-state')).toContainText('paused');

  // A new take of turn 2 with a typed seed: the request names that turn only (the engine then runs one sequence).
  sent.length = 0;
  await page.getByTestId('take-seed-1').selectOption('typed');
  await page.getByTestId('take-typed-seed-1').fill('777');
  await page.getByTestId('regenerate-1').click();
  const takes = page.getByTestId('turn-1').getByRole('radio');
  await expect(takes).toHaveCount(2, { timeout: 90_000 });
  if (!test.info().project.metadata?.electronPath) {
    const takeRequests = sent.filter((f) => f.includes('studio:tts.synthesize'));
    expect(takeRequests).toHaveLength(1);
    expect(takeRequests[0]).toContain('"turnIndex":1');
    expect(takeRequests[0]).toContain('"seed":777');
  }
  await expect(page.getByTestId('turn-1-uses')).toContainText('uses Take 2 · seed 777 · Vivian');
  await expect(page.getByTestId('turn-0-uses')).toContainText('uses Take 1');
  await takes.nth(0).check();
  await expect(takes.nth(0)).toBeChecked();
  await takes.nth(1).check();
  await expect(takes.nth(1)).toBeChecked();
  await expect(page.getByTestId('waveform')).toHaveAttribute('data-num-regions', '2');
  await ui.screenshot('ui-timeline');

  await expect(page.getByTestId('export-format')).toHaveValue('wav'); // the default
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-audio').click()]);
  expect(download.suggestedFilename()).toMatch(/\.wav$/);
  const bytes = readFileSync((await download.path())!);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  expect(bytes.toString('ascii', 0, 4)).toBe('RIFF');
  expect(bytes.toString('ascii', 8, 12)).toBe('WAVE');
  expect(view.getUint16(20, true)).toBe(1); // PCM
  expect(view.getUint16(22, true)).toBe(1); // mono
  expect(view.getUint16(34, true)).toBe(16);
  const sampleRateHz = view.getUint32(24, true);
  expect(sampleRateHz).toBe(24_000);
  // data chunk = file − 44-byte header, 2 bytes per sample
  expect(view.getUint32(40, true)).toBe(bytes.length - 44);
  expect(view.getUint32(40, true)).toBeGreaterThan(0);

  // The same clip through the export contract's encoders, MP3 picked in the format select.
  await page.getByTestId('export-format').selectOption('mp3');
  const [mp3Download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-audio').click()]);
  expect(mp3Download.suggestedFilename()).toMatch(/\.mp3$/);
  const decoder = new MPEGDecoder();
  await decoder.ready;
  const decoded = decoder.decode(readFileSync((await mp3Download.path())!));
  decoder.free();
  expect(decoded.sampleRate).toBe(24_000);
  // As long as the WAV, plus at most LAME's 1,105-sample delay and one 576-sample granule of padding.
  const numWavSamples = view.getUint32(40, true) / 2;
  expect(decoded.samplesDecoded).toBeGreaterThanOrEqual(numWavSamples);
  expect(decoded.samplesDecoded).toBeLessThan(numWavSamples + 1105 + 576);
  await expect(page.getByTestId('export-status')).toContainText('.mp3');
});
