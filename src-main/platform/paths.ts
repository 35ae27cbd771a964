/**
 * Where the studio keeps its files: the user data folder (models, library database, projects,
 * cache) per OS, overridable with STUDIO_DATA_DIR; the folders SSML <audio src> may read from; and
 * where the built engine host entry is.
 * platform/ is the bottom of src-main: it imports nothing of the studio, so engine/, models/ and
 * app/ all use it.
 */
import os from 'node:os';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function defaultUserDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.STUDIO_DATA_DIR) return path.resolve(env.STUDIO_DATA_DIR);
  const home = os.homedir();
  switch (process.platform) {
    case 'win32':
      return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'qwen3-tts-studio');
    case 'darwin':
      return path.join(home, 'Library', 'Application Support', 'qwen3-tts-studio');
    default:
      return path.join(env.XDG_DATA_HOME ?? path.join(home, '.local', 'share'), 'qwen3-tts-studio');
  }
}

/**
 * The folders SSML <audio src> may insert files from by default: the library's clips
 * (<data>/library/clips, where saved clips live) and <data>/imports (where the user puts their own
 * WAV files). A relative src is looked up in them in this order. Folders that do not exist are skipped.
 */
export function defaultAudioInsertRoots(userDataDir: string): string[] {
  return [path.join(userDataDir, 'library', 'clips'), path.join(userDataDir, 'imports')];
}

/** The repository / app root: the folder holding package.json above this module. */
export function appRootDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    dir = path.dirname(dir);
  }
  return process.cwd();
}

export interface HostEntry {
  entry: string;
  execArgv: string[];
}

/** The built engine host (out/main/engine-host.js) or, when running from source, the .ts with tsx. */
export function resolveHostEntry(): HostEntry {
  const root = appRootDir();
  const here = fileURLToPath(import.meta.url);
  const built = path.join(root, 'out', 'main', 'engine-host.js');
  const runningFromSource = here.endsWith('.ts');
  if (!runningFromSource && existsSync(built)) return { entry: built, execArgv: [] };
  return { entry: path.join(root, 'src-main', 'engine-host.ts'), execArgv: ['--import', 'tsx'] };
}

export function rendererDir(): string | null {
  const dir = path.join(appRootDir(), 'out', 'renderer');
  return existsSync(path.join(dir, 'index.html')) ? dir : null;
}
