/**
 * The layer rules of eslint.config.js (docs/architecture.md) fire: planted imports that cross a
 * layer (static, import() or require()) are refused by layers/imports (ESLint's no-restricted-imports
 * extended to dynamic imports) under the same config `npm run lint` uses, permitted ones pass, and the
 * package rules still hold beside them; a file in a folder of src-main (or src-renderer) that its layer
 * table lacks is refused by layers/listed-folder. The renderer's features never import each other. The snippets are linted as text under a path inside the folder; no
 * file is written.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let eslint: ESLint;

/** The messages of rule `ruleId` for `code` linted as if it were the file at `filePath`. */
async function messagesOf(ruleId: string, filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, filePath) });
  return result.messages.filter((m) => m.ruleId === ruleId).map((m) => m.message);
}
/** The import-rule messages for `code` linted as if it were the file at `filePath`. */
const restrictedImports = (filePath: string, code: string) => messagesOf('layers/imports', filePath, code);
const importing = (specifier: string) => `import { x } from '${specifier}';\nexport const y = x;\n`;

/** Each [file, specifier] import is refused once, with a message containing `why`. */
async function expectRefused(cases: readonly (readonly [string, string])[], why: string): Promise<void> {
  for (const [file, specifier] of cases) {
    const messages = await restrictedImports(file, importing(specifier));
    expect(messages, specifier).toHaveLength(1);
    expect(messages[0]).toContain(why);
  }
}

beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

describe('layer rules', () => {
  it('refuses an engine module that imports the engine host, services or the composition root', async () => {
    for (const specifier of ['../engine-host/synthesis-service', '../services/studio-services', '../app/studio-stack', '../headless/http-api']) {
      const messages = await restrictedImports('src-main/engine/planted.ts', importing(specifier));
      expect(messages, specifier).toHaveLength(1);
      expect(messages[0]).toContain('src-main/engine/ may import only');
    }
  });

  it('lets the engine import the folders below it', async () => {
    expect(await restrictedImports('src-main/engine/planted.ts', importing('../audio/wav'))).toEqual([]);
    expect(await restrictedImports('src-main/engine/planted.ts', importing('../platform/paths'))).toEqual([]);
    expect(await restrictedImports('src-main/engine/planted.ts', importing('../../src-shared/errors'))).toEqual([]);
  });

  it('lets the engine import the scheduler, which owns its queue, and keeps the scheduler off the engine', async () => {
    expect(await restrictedImports('src-main/engine/planted.ts', importing('../scheduler/scheduler'))).toEqual([]);
    expect(await restrictedImports('src-main/scheduler/planted.ts', importing('../engine/engine'))).toHaveLength(1);
  });

  it('keeps the ONNX Runtime adapters below engine/runtime/: other folders open sessions through runtime/ort.ts', async () => {
    await expectRefused([
      ['src-main/engine/stages/planted.ts', '../runtime/capi/capi-runtime'],
      ['src-main/engine/planted.ts', './runtime/node-runtime'],
      ['src-main/engine-host/planted.ts', '../engine/runtime/capi'],
    ], 'only src-main/engine/runtime/ imports the ONNX Runtime adapters');
    expect(await restrictedImports('src-main/engine/stages/planted.ts', importing('../runtime/ort'))).toEqual([]);
    expect(await restrictedImports('src-main/engine/runtime/planted.ts', importing('./capi/capi-runtime'))).toEqual([]);
    expect(await restrictedImports('src-main/engine/runtime/capi/planted.ts', importing('../node-runtime'))).toEqual([]);
  });

  it('reads an import by the depth of the importing file (../stages/ in engine/kv/ is engine/stages/, ../../models/ is src-main/models/)', async () => {
    expect(await restrictedImports('src-main/engine/kv/planted.ts', importing('../stages/talker'))).toEqual([]);
    expect(await restrictedImports('src-main/engine/kv/planted.ts', importing('../../models/model-store'))).toHaveLength(1);
    expect(await restrictedImports('src-main/engine/runtime/capi/planted.ts', importing('../../../engine-host/engine-loop'))).toHaveLength(1);
  });

  it('refuses an engine module that imports the model builder; the engine takes the manifest and graph toolkit from model-format', async () => {
    await expectRefused([
      ['src-main/engine/planted.ts', '../model-builder/manifest'],
      ['src-main/engine/stages/planted.ts', '../../model-builder/codec/codec-graph'],
      ['src-main/engine/runtime/capi/planted.ts', '../../../model-builder/tiny-model'],
    ], 'src-main/engine/ may import only');
    expect(await restrictedImports('src-main/engine/stages/planted.ts', importing('../../model-format/manifest'))).toEqual([]);
    expect(await restrictedImports('src-main/engine/kv/planted.ts', importing('../../model-format/onnx/graph-builder'))).toEqual([]);
  });

  it('keeps model-format below both: it imports neither the engine nor the builder, and the builder may run graphs through the engine', async () => {
    expect(await restrictedImports('src-main/model-format/planted.ts', importing('../engine/runtime/ort'))).toHaveLength(1);
    expect(await restrictedImports('src-main/model-format/onnx/planted.ts', importing('../../model-builder/build'))).toHaveLength(1);
    expect(await restrictedImports('src-main/model-builder/planted.ts', importing('../engine/runtime/ort'))).toEqual([]);
    expect(await restrictedImports('src-main/model-builder/codec/planted.ts', importing('../../model-format/codec/codec-stream-io'))).toEqual([]);
  });

  it('lets engine tests import the builder\'s fixtures (tiny-model, reference encoders) but not its graph code', async () => {
    expect(await restrictedImports('src-main/engine/planted.model.test.ts', importing('../model-builder/tiny-model'))).toEqual([]);
    expect(await restrictedImports('src-main/engine/runtime/capi/planted.model.test.ts', importing('../../../model-builder/tiny-model'))).toEqual([]);
    expect(await restrictedImports('src-main/engine/testing/planted.ts', importing('../../model-builder/speech-encoder/reference-speech-encoder'))).toEqual([]);
    const messages = await restrictedImports('src-main/engine/stages/planted.test.ts', importing('../../model-builder/talker-graph'));
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('engine tests may import from src-main/model-builder/ only its fixtures');
    // the package rules still hold in engine tests beside it
    expect(await restrictedImports('src-main/engine/planted.test.ts', "import { Tensor } from 'onnxruntime-node';\nexport const t = Tensor;\n")).toHaveLength(1);
    expect(await restrictedImports('src-main/engine/runtime/planted.test.ts', "import { Tensor } from 'onnxruntime-node';\nexport const t = Tensor;\n")).toEqual([]);
  });

  it('keeps the engine host and its supervisor apart, joined only by engine-protocol', async () => {
    expect(await restrictedImports('src-main/engine-client/planted.ts', importing('../engine/engine'))).toHaveLength(1);
    expect(await restrictedImports('src-main/engine-client/planted.ts', importing('../engine-host/synthesis-service'))).toHaveLength(1);
    expect(await restrictedImports('src-main/engine-host/planted.ts', importing('../engine-client/host-client'))).toHaveLength(1);
    expect(await restrictedImports('src-main/engine-client/planted.ts', importing('../engine-protocol/protocol'))).toEqual([]);
    expect(await restrictedImports('src-main/engine-host.ts', importing('./services/studio-services'))).toHaveLength(1);
    expect(await restrictedImports('src-main/engine-host.ts', importing('./engine-host/synthesis-service'))).toEqual([]);
  });

  it('refuses the two former import loops (render → services) and the upward imports (engine → app)', async () => {
    expect(await restrictedImports('src-main/render/planted.ts', importing('../services/studio-services'))).toHaveLength(1);
    expect(await restrictedImports('src-main/services/planted.ts', importing('../headless/synthesis-bodies'))).toHaveLength(1);
    expect(await restrictedImports('src-main/models/planted.ts', importing('../app/studio-stack'))).toHaveLength(1);
    expect(await restrictedImports('src-main/services/planted.ts', importing('../render/render-queue'))).toEqual([]);
  });

  it('allows a single named module where the rule names one (services may read engine/list-voices only)', async () => {
    expect(await restrictedImports('src-main/services/planted.ts', importing('../engine/list-voices'))).toEqual([]);
    expect(await restrictedImports('src-main/services/planted.ts', importing('../engine/engine'))).toHaveLength(1);
  });

  it('keeps the pure folders to src-shared and each other as they are', async () => {
    expect(await restrictedImports('src-main/scheduler/planted.ts', importing('../engine/sequence'))).toHaveLength(1);
    expect(await restrictedImports('src-main/ssml/planted.ts', importing('../audio/wav'))).toHaveLength(1);
    expect(await restrictedImports('src-main/audio/planted.ts', importing('../ssml/segments'))).toEqual([]);
  });

  it('keeps src-shared, the preload and the renderer off src-main', async () => {
    expect(await restrictedImports('src-shared/planted.ts', importing('../src-main/audio/wav'))).toHaveLength(1);
    expect(await restrictedImports('src-shared/contract/planted.ts', importing('../../src-renderer/store/store'))).toHaveLength(1);
    expect(await restrictedImports('src-preload/planted.ts', importing('../src-main/ipc/register-ipc'))).toHaveLength(1);
    expect(await restrictedImports('src-renderer/components/planted.ts', importing('../../src-main/ssml/parse-ssml'))).toHaveLength(1);
    expect(await restrictedImports('src-renderer/components/planted.ts', importing('../../src-main/audio/loudness'))).toEqual([]);
  });

  it('leaves tests and lab scripts free to start a whole stack', async () => {
    expect(await restrictedImports('src-main/engine/planted.test.ts', importing('../app/studio-stack'))).toEqual([]);
    expect(await restrictedImports('lab/render/planted.ts', importing('../../src-main/app/studio-stack'))).toEqual([]);
  });

  it('holds a lab/ folder inside src-main to its folder\'s layer (probes belong in the top-level lab/)', async () => {
    const messages = await restrictedImports('src-main/render/lab/planted.ts', importing('../../app/studio-stack'));
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('src-main/render/ may import only');
  });

  it('applies the package rules beside the layer rules', async () => {
    const both = await restrictedImports('src-main/engine/kv/planted.ts', `import { Tensor } from 'onnxruntime-node';\n${importing('../../services/studio-services')}`);
    expect(both).toHaveLength(2);
    expect(both.some((m) => m.includes('onnxruntime-node'))).toBe(true);
    expect(await restrictedImports('src-main/engine/runtime/planted.ts', "import { Tensor } from 'onnxruntime-node';\nexport const t = Tensor;\n")).toEqual([]);
  });

  it('reads import() and require() with a literal path by the same rules as a static import', async () => {
    const dynamic = (specifier: string) => `export const m = await import('${specifier}');\n`;
    const required = (specifier: string) => `export const m = require('${specifier}');\n`;
    for (const code of [dynamic('../services/studio-services'), required('../services/studio-services'), dynamic('../../app/studio-stack')]) {
      const file = code.includes('../../') ? 'src-main/engine/kv/planted.ts' : 'src-main/engine/planted.ts';
      const messages = await restrictedImports(file, code);
      expect(messages, code).toHaveLength(1);
      expect(messages[0]).toContain('src-main/engine/ may import only');
    }
    expect(await restrictedImports('src-main/engine/planted.ts', dynamic('../audio/wav'))).toEqual([]);
    expect(await restrictedImports('src-main/services/planted.ts', dynamic('../render/render-queue'))).toEqual([]);
    // package rules too: onnxruntime-node outside engine/runtime/, the C-API adapter outside it
    expect(await restrictedImports('src-main/engine/planted.ts', required('onnxruntime-node'))).toHaveLength(1);
    expect(await restrictedImports('src-main/engine/planted.ts', dynamic('./runtime/capi/capi-runtime'))).toHaveLength(1);
    expect(await restrictedImports('src-main/engine/runtime/planted.ts', dynamic('./capi/capi-runtime'))).toEqual([]);
    // a computed path cannot be read and is left alone; a call of something else named like it is no import
    expect(await restrictedImports('src-main/engine/planted.ts', 'const p = "../services/x";\nexport const m = await import(p);\n')).toEqual([]);
    expect(await restrictedImports('src-main/engine/planted.ts', 'const o = { require: (s: string) => s };\nexport const m = o.require("../services/x");\n')).toEqual([]);
  });

  it('keeps product code off lab/, scripts/ and e2e/ (tests and lab itself may import them)', async () => {
    await expectRefused([
      ['src-main/engine/planted.ts', '../../lab/gpu/codec-batch-diff'],
      ['src-main/engine/runtime/capi/planted.ts', '../../../../scripts/layer-rules.test'],
      ['src-main/main.ts', '../e2e/app.spec'],
      ['src-main/engine-host.ts', '../lab/engine/probe'],
      ['src-main/cli/planted.ts', '../../scripts/device/bundle'],
      ['src-shared/contract/planted.ts', '../../lab/render/probe'],
      ['src-preload/planted.ts', '../e2e/fixtures'],
      ['src-renderer/features/bench/planted.tsx', '../../../scripts/x'],
    ], 'product code never imports lab/, scripts/ or e2e/');
    expect(await restrictedImports('src-main/engine/planted.test.ts', importing('../../lab/gpu/codec-batch-diff'))).toEqual([]);
    expect(await restrictedImports('lab/render/planted.ts', importing('../../scripts/device/bundle'))).toEqual([]);
    // a lab/ folder inside src-main is its folder's own (and held to its layer), not the top-level lab/
    expect(await restrictedImports('src-main/render/planted.ts', importing('./lab/probe'))).toEqual([]);
  });

  it('refuses a file in a folder of src-main that the layer table lacks, or deeper than the rules reach', async () => {
    const listed = (file: string) => messagesOf('layers/listed-folder', file, 'export const x = 1;\n');
    const planted = await listed('src-main/planted-folder/planted.ts');
    expect(planted).toHaveLength(1);
    expect(planted[0]).toContain('src-main/planted-folder/ is not in the layer table');
    expect(await listed('src-main/planted-folder/deeper/planted.test.ts')).toHaveLength(1);
    const deep = await listed('src-main/engine/a/b/c/d/planted.ts');
    expect(deep).toHaveLength(1);
    expect(deep[0]).toContain('5 folders below src-main/');
    expect(await listed('src-main/engine/a/b/c/planted.ts')).toEqual([]);
    expect(await listed('src-main/main.ts')).toEqual([]);
  });

  it('has every folder of src-main in the layer table today, and names one planted in a copy of its folders', async () => {
    const real = path.join(ROOT, 'src-main');
    expect(await unlistedFolders(real)).toEqual([]);
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'layer-rules-'));
    try {
      for (const folder of foldersOf(real)) fs.mkdirSync(path.join(copy, folder));
      fs.mkdirSync(path.join(copy, 'planted-folder'));
      expect(await unlistedFolders(copy)).toEqual(['planted-folder']);
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });
});

describe('renderer layer rules', () => {
  it('refuses a feature that imports another feature, static, import() or require()', async () => {
    const why = 'a feature never imports another feature';
    await expectRefused([
      ['src-renderer/features/timeline/planted.ts', '../speak/speak-actions'],
      ['src-renderer/features/speak/planted.tsx', '../timeline/generate-actions'],
      ['src-renderer/features/library/planted.ts', '../projects/project-actions'],
      ['src-renderer/features/voice/sub/planted.ts', '../../models/model-name'],
    ], why);
    for (const code of ["export const m = await import('../library/LibraryPanel');\n", "export const m = require('../library/library-actions');\n"]) {
      const messages = await restrictedImports('src-renderer/features/timeline/planted.ts', code);
      expect(messages, code).toHaveLength(1);
      expect(messages[0]).toContain(why);
    }
    // the roundabout path through features/ is another feature too
    expect(await restrictedImports('src-renderer/features/timeline/planted.ts', importing('../../features/speak/speak-actions'))).toHaveLength(1);
  });

  it('lets a feature import its own files and components/, store/, ipc/, shared-state/ and src-shared', async () => {
    for (const specifier of ['./timeline.slice', '../../components/Waveform', '../../store/store', '../../ipc/client', '../../shared-state/voice-actions', '../../../src-shared/errors', '../../../src-main/audio/loudness']) {
      expect(await restrictedImports('src-renderer/features/timeline/planted.ts', importing(specifier)), specifier).toEqual([]);
    }
    expect(await restrictedImports('src-renderer/features/voice/sub/planted.ts', importing('../VoicePanel'))).toEqual([]);
  });

  it('keeps the lower folders below the features and the app shell', async () => {
    await expectRefused([
      ['src-renderer/features/speak/planted.ts', '../../app/area-panels'],
      ['src-renderer/components/planted.tsx', '../store/store'],
      ['src-renderer/components/planted.tsx', '../features/speak/SpeakPanel'],
      ['src-renderer/ipc/planted.ts', '../store/store'],
      ['src-renderer/shared-state/planted.ts', '../features/timeline/generate-actions'],
      ['src-renderer/store/planted.ts', '../features/speak/speak-actions'],
    ], 'may import only');
    // the store is composed from the slices (its one upward arrow); the app shell composes features
    expect(await restrictedImports('src-renderer/store/planted.ts', importing('../features/speak/speak.slice'))).toEqual([]);
    expect(await restrictedImports('src-renderer/store/planted.ts', importing('../app/shell.slice'))).toEqual([]);
    expect(await restrictedImports('src-renderer/app/planted.tsx', importing('../features/speak/SpeakPanel'))).toEqual([]);
    expect(await restrictedImports('src-renderer/app/planted.tsx', "export const m = await import('../features/bench/BenchPanel');\n")).toEqual([]);
  });

  it('leaves renderer tests free to start a whole screen', async () => {
    expect(await restrictedImports('src-renderer/features/timeline/planted.test.ts', importing('../library/library-actions'))).toEqual([]);
  });

  it('refuses a file in a folder of src-renderer that the table lacks, or deeper than the rules reach', async () => {
    const listed = (file: string) => messagesOf('layers/listed-folder', file, 'export const x = 1;\n');
    const planted = await listed('src-renderer/planted-folder/planted.ts');
    expect(planted).toHaveLength(1);
    expect(planted[0]).toContain('src-renderer/planted-folder/ is not in the layer table: add it to RENDERER_LAYERS');
    const deep = await listed('src-renderer/features/speak/a/b/planted.ts');
    expect(deep).toHaveLength(1);
    expect(deep[0]).toContain('4 folders below src-renderer/');
    expect(await listed('src-renderer/features/speak/a/planted.ts')).toEqual([]);
    expect(await listed('src-renderer/main.tsx')).toEqual([]);
  });

  it('has every folder of src-renderer in the table today', async () => {
    const folders = foldersOf(path.join(ROOT, 'src-renderer'));
    expect(folders).toEqual(expect.arrayContaining(['app', 'components', 'features', 'ipc', 'store']));
    const unlisted: string[] = [];
    for (const folder of folders) {
      if ((await messagesOf('layers/listed-folder', `src-renderer/${folder}/planted.ts`, 'export const x = 1;\n')).length > 0) unlisted.push(folder);
    }
    expect(unlisted).toEqual([]);
  });
});

const foldersOf = (dir: string) => fs.readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

/** The folders of `dir` (src-main or a copy of its folders) on which a file linted as src-main/<folder>/ is refused as unlisted. */
async function unlistedFolders(dir: string): Promise<string[]> {
  const folders = foldersOf(dir);
  expect(folders.length).toBeGreaterThan(20);
  const unlisted: string[] = [];
  for (const folder of folders) {
    if ((await messagesOf('layers/listed-folder', `src-main/${folder}/planted.ts`, 'export const x = 1;\n')).length > 0) unlisted.push(folder);
  }
  return unlisted;
}
