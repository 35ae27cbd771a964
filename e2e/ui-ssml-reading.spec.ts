/**
 * SSML reading end to end (issue 26): strict and lenient, and the dialect, from the editor's
 * control beside the document and from the HTTP API. Strict refuses a voice the model lacks in the
 * editor and at Generate alike; lenient generates it with a warning; auto says what it detected.
 */
import { E2E_TOKEN } from '../playwright.config';
import { test, expect } from './fixtures/app';
import { generateAndWaitForRegions, setDocument, waitForEngine } from './ui-helpers';

const UNKNOWN_VOICE = '<speak>\n  <voice name="bob">Hello from a voice the model does not have.</voice>\n</speak>';

test('strict and lenient reach generation from the editor control', async ({ ui }) => {
  const { page } = ui;
  await waitForEngine(page);
  await ui.openArea('timeline');
  await setDocument(page, UNKNOWN_VOICE);
  const diagnostics = page.getByTestId('ssml-diagnostics');
  await expect(diagnostics).toContainText("voice 'bob' is not a speaker", { timeout: 10_000 });
  await expect(page.getByTestId('generate')).toBeDisabled();

  await page.getByTestId('ssml-lenient').check();
  await expect(diagnostics).toHaveCount(0);
  await expect(page.getByTestId('ssml-warnings')).toContainText('1 warning');
  await expect(page.getByTestId('generate')).toBeEnabled();
  await generateAndWaitForRegions(page, 1);
  await ui.screenshot('ui-ssml-lenient');

  await page.getByTestId('ssml-lenient').uncheck();
  await setDocument(page, '<speak xmlns:mstts="https://www.w3.org/2001/mstts">We sell <bookmark mark="f1"/>roses.</speak>');
  await expect(page.getByTestId('ssml-dialect-read')).toContainText('read as Azure (from xmlns:mstts on <speak>)', { timeout: 10_000 });
  await expect(page.getByTestId('turn-count')).toHaveText('1 turn');
  await page.getByTestId('ssml-dialect').selectOption('ssml11');
  await expect(diagnostics).toContainText('<bookmark> is a Azure element, not part of W3C SSML 1.1');
  await expect(page.getByTestId('generate')).toBeDisabled();
});

test('strict and lenient reach generation over HTTP', async ({ ui, request }) => {
  await waitForEngine(ui.page);
  const headers = { authorization: `Bearer ${E2E_TOKEN}` };
  const ssml = '<speak><voice name="bob">Hello.</voice></speak>';
  const strict = await request.post('/api/v1/tts', { headers, data: { ssml, voice: 'ryan' } });
  expect(strict.status()).toBe(400);
  expect((await strict.json()).error).toMatchObject({ code: 'ssml-invalid', details: { element: 'voice', attribute: 'name', value: 'bob' } });

  const lenient = await request.post('/api/v1/tts', { headers, data: { ssml, voice: 'ryan', lenient: true } });
  expect(lenient.status(), await lenient.text()).toBe(200);
  expect((await lenient.body()).toString('ascii', 0, 4)).toBe('RIFF');
  expect(decodeURIComponent(lenient.headers()['x-studio-warnings'])).toContain("voice 'bob' is not a speaker");

  const azure = '<speak><prosody rate="50%">Quick.</prosody></speak>';
  expect((await request.post('/api/v1/tts', { headers, data: { ssml: azure, voice: 'ryan', ssml_dialect: 'azure' } })).status()).toBe(200); // 1.5×
  const slow = await request.post('/api/v1/tts', { headers, data: { ssml: '<speak><prosody rate="30%">Slow.</prosody></speak>', voice: 'ryan', ssml_dialect: 'ssml11' } });
  expect(slow.status()).toBe(400); // 0.3× is below the 0.5× floor in SSML 1.1's reading

  const speech = await request.post('/v1/audio/speech', { headers, data: { model: 'qwen3-tts', input: ssml, voice: 'ryan', input_format: 'ssml', lenient: true, response_format: 'wav' } });
  expect(speech.status()).toBe(200);
  const speechStrict = await request.post('/v1/audio/speech', { headers, data: { model: 'qwen3-tts', input: ssml, voice: 'ryan', input_format: 'ssml' } });
  expect(speechStrict.status()).toBe(400);
});
