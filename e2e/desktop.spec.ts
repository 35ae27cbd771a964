/**
 * The desktop app in a real Electron window (_electron.launch), for what only Electron has: the
 * native-module start-up check and the library on node:sqlite, dialogs whose picks are granted
 * and imports copied into the data folder, the application menu, the window's size and position
 * kept across launches, and a file dropped on the window. Skipped, saying why, where no Electron
 * binary exists (the browser project); see README "Desktop app" for how to run it.
 */
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect, _electron, type ElectronApplication, type Page } from '@playwright/test';
import { findElectronBinary } from '../src-main/cli/electron-binary';

const electron = findElectronBinary(process.cwd());
test.skip(!electron.found, `no Electron binary (${electron.found ? '' : electron.reason}); run \`npx install-electron\` with network access or set ELECTRON_EXEC_PATH`);

interface Launched {
  app: ElectronApplication;
  page: Page;
  stdout: string[];
}

async function launch(dataDir: string): Promise<Launched> {
  const app = await _electron.launch({
    executablePath: electron.found ? electron.path : undefined,
    args: ['.'],
    env: { ...process.env, STUDIO_DATA_DIR: dataDir, STUDIO_NO_ELECTRON_DOWNLOAD: '1' },
  });
  const stdout: string[] = [];
  app.process().stdout?.on('data', (d: Buffer) => stdout.push(...d.toString('utf8').split('\n')));
  const page = await app.firstWindow();
  await expect(page.getByRole('heading', { name: 'Qwen3-TTS Studio' })).toBeVisible();
  return { app, page, stdout };
}

/** Calls the studio contract from the page, as the renderer's ipc/client does. */
function invoke(page: Page, channel: string, request: unknown) {
  return page.evaluate(([c, r]) => (window as unknown as { studio: { invoke(c: string, r: unknown): Promise<unknown> } }).studio.invoke(c as string, r), [channel, request] as const);
}

/** Makes Electron's open/save dialogs answer with these paths (the native dialogs cannot be clicked by Playwright). */
async function scriptDialogs(app: ElectronApplication, answers: { open?: string[]; save?: string }) {
  await app.evaluate(({ dialog }, a) => {
    dialog.showOpenDialog = (async () => ({ canceled: !a.open, filePaths: a.open ?? [] })) as typeof dialog.showOpenDialog;
    dialog.showSaveDialog = (async () => ({ canceled: !a.save, filePath: a.save ?? '' })) as typeof dialog.showSaveDialog;
  }, answers);
}

test('native modules load under Electron and the library runs on node:sqlite', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'studio-e2e-desktop-'));
  const { app, page, stdout } = await launch(dataDir);
  await expect.poll(() => stdout.join('\n')).toMatch(/\[studio\] native onnxruntime-node: ok/);
  await expect.poll(() => stdout.join('\n')).toMatch(/\[studio\] native library SQLite: ok — node:sqlite/);
  expect(await invoke(page, 'studio:library.listClips', {})).toEqual({ ok: true, value: [] });
  expect(existsSync(path.join(dataDir, 'library', 'library.sqlite'))).toBe(true);
  await expect(page.getByTestId('engine-status')).toContainText('Engine ready', { timeout: 120_000 });
  await app.close();
});

test('dialogs: an imported file is copied into the data folder, a save-as path outside it is returned', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'studio-e2e-desktop-'));
  const outside = mkdtempSync(path.join(os.tmpdir(), 'studio-e2e-outside-'));
  const wav = path.join(outside, 'my take.wav');
  writeFileSync(wav, Buffer.from('RIFF$\0\0\0WAVEfmt '));
  const { app, page } = await launch(dataDir);

  await scriptDialogs(app, { open: [wav] });
  const imported = (await invoke(page, 'studio:desktop.showImportAudio', {})) as { ok: true; value: { imported: { path: string }[] } };
  expect(imported.ok).toBe(true);
  const copy = imported.value.imported[0]!.path;
  expect(path.dirname(copy)).toBe(path.join(dataDir, 'imports'));
  expect(readFileSync(copy)).toEqual(readFileSync(wav));

  const saveAs = path.join(outside, 'talk.studio.json');
  await scriptDialogs(app, { save: saveAs });
  expect(await invoke(page, 'studio:desktop.showSaveProject', { suggestedName: 'Talk' })).toEqual({ ok: true, value: { path: saveAs } });
  await app.close();
});

test('application menu switches areas and the window comes back where it was', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'studio-e2e-desktop-'));
  const first = await launch(dataDir);
  const labels = await first.app.evaluate(({ Menu }) => Menu.getApplicationMenu()?.items.map((i) => i.label) ?? []);
  expect(labels).toEqual(expect.arrayContaining(['&File', '&Edit', '&View', '&Window', '&Help']));
  await first.app.evaluate(({ Menu }) => {
    const view = Menu.getApplicationMenu()?.items.find((i) => i.label === '&View');
    view?.submenu?.items.find((i) => i.label === 'Benchmark')?.click();
  });
  await expect(first.page.getByTestId('nav-bench')).toHaveAttribute('aria-current', 'page');

  await first.app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.setBounds({ x: 40, y: 50, width: 1000, height: 700 }));
  await expect.poll(() => existsSync(path.join(dataDir, 'window-state.json')), { timeout: 5_000 }).toBe(true);
  await first.app.close();
  const saved = JSON.parse(readFileSync(path.join(dataDir, 'window-state.json'), 'utf8')) as { bounds: { width: number; height: number } };
  expect(saved.bounds).toMatchObject({ width: 1000, height: 700 });

  const second = await launch(dataDir);
  const bounds = await second.app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.getBounds());
  expect(bounds).toMatchObject({ width: 1000, height: 700 });
  await second.app.close();
});

test('an SSML file dropped on the window lands in the editor', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'studio-e2e-desktop-'));
  const folder = path.join(dataDir, 'drops');
  mkdirSync(folder);
  const ssml = path.join(folder, 'scene.ssml');
  writeFileSync(ssml, '<speak>Dropped from the desktop.</speak>');
  const { app, page } = await launch(dataDir);
  // A real OS drop: Chromium's DevTools Input.dispatchDragEvent carries file paths like the OS does.
  const cdp = await page.context().newCDPSession(page);
  const data = { items: [], files: [ssml], dragOperationsMask: 1 };
  for (const type of ['dragEnter', 'dragOver', 'drop'] as const) await cdp.send('Input.dispatchDragEvent', { type, x: 400, y: 300, data });
  await expect(page.getByTestId('desktop-notice')).toContainText('scene.ssml is in the editor');
  await expect(page.getByTestId('nav-timeline')).toHaveAttribute('aria-current', 'page');
  await app.close();
});
