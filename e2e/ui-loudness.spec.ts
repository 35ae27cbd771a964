/**
 * The loudness target in Settings reaches every clip: two targets give Speak downloads measured
 * (BS.1770, the project's meter) at those targets, under the ceiling; an out-of-range target is
 * refused with its range. Screenshot of the setting at 1024×700 dark.
 */
import { readFileSync } from 'node:fs';
import { test, expect } from './fixtures/app';
import { waitForEngine } from './ui-helpers';
import { measureIntegratedLoudness } from '../src-main/audio/loudness';
import { measureTruePeakDbtp } from '../src-main/audio/true-peak';

test.use({ colorScheme: 'dark', viewport: { width: 1024, height: 700 } });

/** 16-bit PCM WAV → float samples and rate (reads the fmt and data chunks). */
function readWav16(bytes: Buffer): { pcm: Float32Array; sampleRateHz: number } {
  let at = 12;
  let sampleRateHz = 0;
  while (at + 8 <= bytes.length) {
    const id = bytes.toString('ascii', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    if (id === 'fmt ') sampleRateHz = bytes.readUInt32LE(at + 12);
    if (id === 'data') {
      const pcm = new Float32Array(size / 2);
      for (let i = 0; i < pcm.length; i++) pcm[i] = bytes.readInt16LE(at + 8 + i * 2) / 32768;
      return { pcm, sampleRateHz };
    }
    at += 8 + size + (size % 2);
  }
  throw new Error('no data chunk');
}

test('two loudness targets give clips measured at those targets', async ({ ui }) => {
  const { page } = ui;
  await waitForEngine(page);
  const measured: number[] = [];
  for (const [target, ceiling] of [[-20, -1], [-30, -3]] as const) {
    await ui.openArea('settings');
    await page.getByTestId('loudness-target').fill(String(target));
    await page.getByTestId('loudness-ceiling').fill(String(ceiling));
    await page.getByTestId('loudness-apply').click();
    await expect(page.getByTestId('loudness-message')).toContainText(`${target} LUFS`);
    await expect(page.getByTestId('output-loudness')).toContainText(`${target} LUFS`);
    if (target === -20) await ui.screenshot('ui-loudness-setting-1024-dark');
    await page.reload(); // the setting is kept; the previous result is not, so the next one is this target's
    await waitForEngine(page);
    await ui.openArea('speak');
    await expect(page.getByTestId('speak-result')).toHaveCount(0);
    await page.getByTestId('speak-input').fill('A line measured at the loudness target the settings ask for.');
    await page.getByTestId('speak-generate').click();
    await expect(page.getByTestId('speak-result')).toBeVisible({ timeout: 90_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('speak-download').click()]);
    const { pcm, sampleRateHz } = readWav16(readFileSync((await download.path())!));
    const lufs = measureIntegratedLoudness(pcm, sampleRateHz);
    measured.push(lufs);
    console.log(`target ${target} LUFS / ${ceiling} dBTP: measured ${lufs.toFixed(2)} LUFS, true peak ${measureTruePeakDbtp(pcm, sampleRateHz).toFixed(2)} dBTP`);
    expect(measureTruePeakDbtp(pcm, sampleRateHz)).toBeLessThanOrEqual(ceiling + 0.1); // 16-bit rounding
    // The synthetic model's noise is far from any ceiling at these targets: the target wins.
    expect(lufs).toBeCloseTo(target, 0);
  }
  expect(measured[0] - measured[1]).toBeCloseTo(10, 0);

  await ui.openArea('settings');
  await page.getByTestId('loudness-target').fill('3');
  await page.getByTestId('loudness-apply').click();
  await expect(page.getByTestId('loudness-message')).toContainText('must be from -70 to -5 LUFS');
  await page.getByRole('button', { name: /Reset to/ }).click();
  await expect(page.getByTestId('output-loudness')).toContainText('-16 LUFS');
});
