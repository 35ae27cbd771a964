/**
 * Computes, without Electron, the files electron-builder 26 would put in the app for a platform
 * and arch: the app's own files through its `files` patterns plus its default exclusions, the
 * production dependencies from package-lock.json through the exclusion patterns only (as its
 * node-module matcher does), and what stays outside app.asar (asarUnpack, plus the whole package
 * of any native binary, as its smart unpack does). Matching follows app-builder-lib's filter:
 * minimatch with dot:true, patterns in order, the last match wins; ${platform}/${arch} expanded.
 * Checked once against a real `electron-builder --linux dir` run (README, Desktop app).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export type PackPlatform = 'linux' | 'win' | 'mac';
export type PackArch = 'x64' | 'arm64';

const NODE_PLATFORM: Record<PackPlatform, string> = { linux: 'linux', win: 'win32', mac: 'darwin' };

export interface BuilderConfig {
  files: string[];
  asarUnpack: string[];
  directories: { output: string; buildResources: string };
  /** Must stay unset (see computePackedFiles). */
  linux?: { files?: string[] };
  win?: { files?: string[] };
  mac?: { files?: string[] };
  [key: string]: unknown;
}

export interface PackedFiles {
  /** Every packed file, relative to the app root, with '/' separators. */
  files: string[];
  /** The subset asarUnpack keeps outside app.asar. */
  unpacked: string[];
  /** Production packages found in node_modules (name@version). */
  packages: string[];
}

interface Matcher {
  negate: boolean;
  match(p: string): boolean;
}

/** electron-builder's own minimatch (app-builder-lib's copy), so patterns match exactly as it matches them. */
function loadMinimatch(toolsDir: string): new (pattern: string, options: { dot: boolean }) => Matcher {
  const builderRequire = createRequire(createRequire(path.join(toolsDir, 'package.json')).resolve('app-builder-lib'));
  return (builderRequire('minimatch') as { Minimatch: new (pattern: string, options: { dot: boolean }) => Matcher }).Minimatch;
}

/** app-builder-lib's default exclusions (fileMatcher.ts: excludedExts, excludedNames, the config files). */
const DEFAULT_EXCLUDES = [
  '!**/*.{iml,hprof,orig,pyc,pyo,rbc,swp,csproj,sln,suo,xproj,cc,d.ts,mk,a,o,obj,forge-meta,pdb}',
  '!**/._*',
  '!**/electron-builder.{yaml,yml,json,json5,toml,ts}',
  '!**/{.git,.hg,.svn,CVS,RCS,SCCS,__pycache__,.DS_Store,thumbs.db,.gitignore,.gitkeep,.gitattributes,.npmignore,.idea,.vs,.flowconfig,.jshintrc,.eslintrc,.circleci,.yarn-integrity,.yarn-metadata.json,yarn-error.log,yarn.lock,package-lock.json,npm-debug.log,pnpm-lock.yaml,bun.lock,bun.lockb,appveyor.yml,.travis.yml,circle.yml,.nyc_output,.husky,.github,electron-builder.env}',
  '!.editorconfig',
];

function walk(root: string, rel: string, skipDir: (relDir: string) => boolean, out: string[]): void {
  for (const entry of readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!skipDir(child)) walk(root, child, skipDir, out);
    } else if (entry.isFile() || entry.isSymbolicLink()) {
      out.push(child);
    }
  }
}

/** The last pattern that matches decides (minimatchAll in app-builder-lib's filter.ts). */
function matchesAll(p: string, patterns: readonly Matcher[]): boolean {
  let included = false;
  for (const m of patterns) {
    if (included !== m.negate) continue; // matched: only exclusions can change it; unmatched: only inclusions
    included = m.match(p); // a negated Minimatch answers false for paths its pattern covers
  }
  return included;
}

export function readBuilderConfig(projectDir: string): BuilderConfig {
  return JSON.parse(readFileSync(path.join(projectDir, 'electron-builder.json'), 'utf8')) as BuilderConfig;
}

/**
 * Production packages in node_modules per package-lock.json: dev, dev-optional and peer-only ones
 * left out (electron-builder's npm collector leaves out peer-only packages too).
 */
export function productionPackages(projectDir: string): { dir: string; name: string; version: string }[] {
  const lock = JSON.parse(readFileSync(path.join(projectDir, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; dev?: boolean; devOptional?: boolean; peer?: boolean; link?: boolean }>;
  };
  return Object.entries(lock.packages)
    .filter(([dir, meta]) => dir.startsWith('node_modules/') && !meta.dev && !meta.devOptional && !meta.peer && !meta.link && existsSync(path.join(projectDir, dir)))
    .map(([dir, meta]) => ({ dir, name: dir.slice(dir.lastIndexOf('node_modules/') + 'node_modules/'.length), version: meta.version ?? '' }));
}

const isNativeBinary = (f: string) => /\.(node|dll|dylib|so)$|\.so\.\d+/.test(f);

/** `toolsDir`: where electron-builder is installed (default: the project itself). */
export function computePackedFiles(projectDir: string, config: BuilderConfig, platform: PackPlatform, arch: PackArch = 'x64', toolsDir: string = projectDir): PackedFiles {
  for (const key of ['linux', 'win', 'mac'] as const) {
    // A platform's `files` replaces the top-level list for the app's own files (measured with
    // electron-builder 26.18.1), which silently packs the whole repository: refuse it.
    if (config[key]?.files) throw new Error(`electron-builder.json: ${key}.files replaces the top-level files list; use \${platform}/\${arch} macros in the top-level list instead`);
  }
  const Minimatch = loadMinimatch(toolsDir);
  const expand = (p: string) => p.replaceAll('${platform}', NODE_PLATFORM[platform]).replaceAll('${arch}', arch).replaceAll('${os}', platform);
  const compile = (patterns: readonly string[]): Matcher[] => patterns.map((p) => new Minimatch(expand(p), { dot: true }));
  const userPatterns = config.files;
  const outDirs = [config.directories.output, config.directories.buildResources].map((d) => `!${d.replace(/\/$/, '')}{,/**/*}`);
  const appPatterns = compile([...userPatterns, '!**/node_modules/**', ...outDirs, ...DEFAULT_EXCLUDES]);
  const moduleExcludes = compile(['**/*', ...userPatterns.filter((p) => p.startsWith('!')), ...DEFAULT_EXCLUDES]);

  const appFiles: string[] = [];
  walk(projectDir, '', (d) => d === 'node_modules' || d === '.git' || d.endsWith('/node_modules'), appFiles);
  const files = appFiles.filter((f) => matchesAll(f, appPatterns));

  const packages = productionPackages(projectDir);
  for (const pkg of packages) {
    const inPkg: string[] = [];
    walk(path.join(projectDir, pkg.dir), '', (d) => d === 'node_modules' || d.endsWith('/node_modules'), inPkg);
    for (const f of inPkg) {
      const rel = `${pkg.dir}/${f}`;
      if (matchesAll(rel, moduleExcludes)) files.push(rel);
    }
  }
  const unpack = compile(config.asarUnpack);
  // Smart unpack: a package holding a native binary is unpacked whole.
  const packageOf = (f: string) => /^((?:.*\/)?node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(f)?.[1] ?? null;
  const nativePackages = new Set(files.filter(isNativeBinary).map(packageOf).filter((p): p is string => p !== null));
  const unpacked = files.filter((f) => unpack.some((m) => m.match(f)) || nativePackages.has(packageOf(f) ?? ''));
  return { files: files.sort(), unpacked: unpacked.sort(), packages: packages.map((p) => `${p.name}@${p.version}`).sort() };
}
