// Playwright end-to-end tests. Where an Electron binary exists the 'electron' project drives the
// app through _electron.launch; otherwise the 'browser' project runs Debian Chromium (headless,
// no sandbox, background networking off) against the headless host that webServer starts on loopback.
import { defineConfig } from '@playwright/test';
import { findElectronBinary } from './src-main/cli/electron-binary';

export const E2E_PORT = Number(process.env.STUDIO_E2E_PORT ?? 7871);
/** The test host's token (loopback only): the fixture opens the UI through its one-time URL, as a user would. */
export const E2E_TOKEN = process.env.STUDIO_E2E_TOKEN ?? `e2e-${E2E_PORT}-local-test-token`;
const electron = findElectronBinary(process.cwd());
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: 'e2e',
  testMatch: /.*\.spec\.ts$/,
  outputDir: 'test-results/artifacts',
  timeout: 120_000,
  expect: { timeout: 30_000 },
  workers: 1,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: chromiumPath,
      args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
  projects: electron.found ? [{ name: 'electron', metadata: { electronPath: electron.path } }] : [{ name: 'browser' }],
  webServer: electron.found
    ? undefined
    : {
        command: `node e2e/fixtures/start-host.mjs ${E2E_PORT} ${E2E_TOKEN}`,
        url: `http://127.0.0.1:${E2E_PORT}/readyz`,
        timeout: 300_000,
        reuseExistingServer: false,
        stdout: 'pipe',
        stderr: 'pipe',
      },
});
