/**
 * `studio start` (what `npm start` runs): opens the Electron app where a binary exists; otherwise
 * says so in one line, with how to get one, and runs the headless host, printing its URL.
 * `--headless` skips Electron.
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import type { Command } from 'commander';
import { appRootDir } from '../platform/paths';
import { ELECTRON_HELP, findElectronBinary } from './electron-binary';
import { runServe, type ServeOptions } from './serve-command';

interface StartOptions extends ServeOptions {
  headless?: boolean;
}

function tryLazyDownload(root: string): void {
  if (process.env.STUDIO_NO_ELECTRON_DOWNLOAD === '1') return;
  const installer = path.join(root, 'node_modules', 'electron', 'install.js');
  spawnSync(process.execPath, [installer], { stdio: 'ignore', timeout: 120_000 });
}

async function runStart(opts: StartOptions): Promise<void> {
  const root = appRootDir();
  if (!opts.headless) {
    let lookup = findElectronBinary(root);
    if (!lookup.found && !process.env.ELECTRON_EXEC_PATH) {
      tryLazyDownload(root);
      lookup = findElectronBinary(root);
    }
    if (lookup.found) {
      const child = spawn(lookup.path, [root], { stdio: 'inherit', env: process.env });
      await new Promise<void>((resolve) => child.on('exit', (code) => process.exit(code ?? 0)).on('error', () => resolve()));
      return;
    }
    console.log(`Electron unavailable: ${lookup.reason}; ${ELECTRON_HELP}. Starting the headless host instead.`);
  }
  await runServe(opts);
}

export function registerStart(program: Command): void {
  program
    .command('start')
    .description('open the studio (Electron), or the headless host in a browser when Electron is unavailable')
    .option('--headless', 'do not try Electron; serve the UI over HTTP')
    .option('--port <n>', 'TCP port for the headless host', '7860')
    .option('--host <address>', 'address to bind; anything but loopback needs --token', '127.0.0.1')
    .option('--token <token>', 'bearer token required by the HTTP API (or STUDIO_TOKEN)')
    .option('--model <dir>', "model folder, or 'embedded:tiny' (the synthetic default)")
    .option('--drain-ms <ms>', 'on shutdown, how long in-flight requests may finish', '10000')
    .action(runStart);
}
