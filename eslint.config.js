// ESLint flat config: TypeScript rules plus the import boundaries, enforced per folder the VS Code
// way with ESLint's own no-restricted-imports, extended (layers/imports below) to dynamic import()
// and require() with a literal path. Packages: only the ORT adapters (engine/runtime/) import
// onnxruntime-node, only capi/ imports koffi, pure folders stay free of electron, react and ORT, only
// audio/codec-encode.ts imports the codec libraries. Layers (docs/architecture.md): each folder
// imports only the folders LAYERS lists, and every folder of src-main is in LAYERS (an allow-list:
// layers/listed-folder refuses a file in a folder the table lacks); the renderer likewise by
// RENDERER_LAYERS, its features never importing each other. Product code never imports lab/,
// scripts/ or e2e/. Also: only src-renderer/ipc touches window.studio; no spread arguments on the
// request path.
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { builtinRules } from 'eslint/use-at-your-own-risk';

const ORT = { name: 'onnxruntime-node', message: 'only the ONNX Runtime adapters in src-main/engine/runtime/ may import onnxruntime-node' };
const KOFFI = { name: 'koffi', message: 'only the C-API adapter in src-main/engine/runtime/capi/ may import koffi' };
const ELECTRON = { name: 'electron', message: 'electron is imported only by main.ts, ipc/, engine-client/utility-host.ts, desktop/electron-*.ts and the preload' };
const REACT = { name: 'react', message: 'pure modules must not import react' };
const REACT_DOM = { name: 'react-dom', message: 'pure modules must not import react-dom' };
const CODECS = { group: ['mediabunny', '@mediabunny/*', 'opusscript'], message: 'only src-main/audio/codec-encode.ts imports the codec libraries; call encode-audio.ts' };
const NODE_IN_SHARED = { group: ['node:*', 'fs', 'path', 'os', 'child_process'], message: 'src-shared is types and constants only: no Node imports' };
const NODE_IN_RENDERER = { group: ['node:*'], message: 'the renderer runs in a sandboxed browser: no Node imports' };
// Renderer tests included; the renderer's own code is held tighter by its layer rule below.
const MAIN_IN_RENDERER = { group: ['**/src-main/engine/**', '**/src-main/engine-host/**', '**/src-main/engine-client/**', '**/src-main/engine-protocol/**', '**/src-main/services/**', '**/src-main/library/**', '**/src-main/models/**'], message: 'the renderer talks to main only through ipc/client.ts' };
const WINDOW_STUDIO = { selector: "MemberExpression[object.name='window'][property.name='studio']", message: 'only src-renderer/ipc/ touches window.studio' };
// f(...xs) passes every element as an argument: an input-sized xs overflows the stack ("Maximum
// call stack size exceeded" on 1 MB of text). The request path uses loops or reduce instead.
const CALL_SPREAD = {
  selector: 'CallExpression > SpreadElement, NewExpression > SpreadElement',
  message: 'no spread arguments on the request path (push(...xs), Math.min(...xs)): a long input overflows the stack; use a loop or reduce',
};

// Which packages code may import: [files, paths, patterns]; for a file, the last entry that matches
// wins (files null: every file).
const PACKAGE_RULES = [
  [null, [ORT, KOFFI, ELECTRON], [CODECS]],
  [['src-main/engine/runtime/*.ts'], [KOFFI, ELECTRON], [CODECS]],
  [['src-main/engine/runtime/capi/**'], [ELECTRON], [CODECS]],
  [['src-main/main.ts', 'src-main/ipc/**', 'src-main/engine-client/utility-host.ts', 'src-main/desktop/electron-*.ts', 'src-preload/**'], [ORT], [CODECS]],
  [['src-main/scheduler/**', 'src-main/ssml/**', 'src-main/audio/**', 'src-shared/**'], [ORT, ELECTRON, REACT, REACT_DOM], [CODECS]],
  [['src-main/audio/codec-encode.ts'], [ORT, ELECTRON, REACT, REACT_DOM], []],
  [['src-shared/**'], [ORT, ELECTRON, REACT], [CODECS, NODE_IN_SHARED]],
  [['src-renderer/**'], [ORT, ELECTRON], [CODECS, NODE_IN_RENDERER, MAIN_IN_RENDERER]],
];

// Layers: the folders of src-main each folder may import besides itself and src-shared; 'folder/file'
// allows that one module only. Lowest first; docs/architecture.md draws the same picture.
const PURE = ['scheduler', 'ssml', 'audio', 'telemetry'];
const MAIN_SIDE = ['platform', ...PURE, 'engine-protocol', 'engine-client', 'bench', 'library', 'models', 'access', 'api', 'render', 'services'];
const LAYERS = {
  // What a built model is, for the builder that writes it and the engine that runs it: the manifest,
  // the ONNX graph toolkit, float bits, the graphs' I/O names, chunked codec decoding.
  'model-format': [],
  platform: [],
  telemetry: [],
  scheduler: [],
  ssml: [],
  audio: ['ssml'],
  // The engine asks the scheduler (the one owner of the sequences in flight) for each batch. It never
  // imports the builder (what both need is in model-format/; for engine tests see ENGINE_TEST_FIXTURES).
  engine: ['platform', 'model-format', 'scheduler', 'audio', 'telemetry'],
  // The builder runs graphs through engine/runtime/ (embedding tables, reference checks); one way only.
  'model-builder': ['platform', 'model-format', 'audio', 'telemetry', 'engine'],
  'engine-protocol': [],
  // engine-host/embedded-model.ts builds the embedded model on first run.
  'engine-host': ['platform', ...PURE, 'model-format', 'engine', 'model-builder', 'engine-protocol'],
  // Exception: --devices reads each provider's device facts from the provider table (pure data, no imports).
  'engine-client': ['platform', 'engine-protocol', 'engine/runtime/providers'],
  bench: ['platform', ...PURE],
  library: ['platform', ...PURE, 'bench'],
  models: ['platform', ...PURE, 'model-builder'],
  access: ['platform', ...PURE, 'models'],
  api: ['platform', ...PURE],
  packaging: [],
  render: ['platform', ...PURE, 'api', 'engine-protocol', 'engine-client'],
  // Exception: the voice library reserves the speaker names of resources/voices/voices.json.
  services: ['platform', ...PURE, 'engine-protocol', 'engine-client', 'bench', 'library', 'models', 'access', 'api', 'render', 'engine/list-voices'],
  // app/ validates engine overrides in main (engine-config.ts) before a host starts.
  app: [...MAIN_SIDE, 'engine'],
  desktop: MAIN_SIDE,
  ipc: [...MAIN_SIDE, 'desktop'],
  headless: [...MAIN_SIDE, 'app'],
};
// cli/ is a composition root like main.ts: it may import every folder of src-main.
const ROOTS = ['cli'];
const MAIN_FOLDERS = [...Object.keys(LAYERS), ...ROOTS];
const MAX_DEPTH = 4; // folder levels below src-main/ (3 today)
// Tests and their helpers may reach across layers to start a real stack. Lab probes and benches live
// in the top-level lab/, outside these rules; a lab/ folder inside src-main is held to its folder's layer.
const NOT_LAYERED = ['**/*.test.ts', '**/*.test.tsx', '**/testing/**'];
// The one layer rule on tests: engine tests and helpers build their models from the builder's fixtures and
// references below, and take everything else the engine shares with the builder from model-format/,
// as the engine does. Add a module here only if it is a fixture or reference, not graph code.
const ENGINE_TESTS = ['src-main/engine/**/*.test.ts', 'src-main/engine/**/testing/**'];
const ENGINE_TEST_FIXTURES = [
  'tiny-model', 'checkpoint', 'safetensors', 'speaker-encoder/reference-speaker-encoder', 'speaker-encoder/speaker-encoder-config',
  'speech-encoder/reference-speech-encoder', 'speech-encoder/speech-encoder-config',
];

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The folders `folder` may not import, as a regex on import specifiers written from `depth` levels below src-main/. */
function forbiddenFolders(folder, depth) {
  const allowed = LAYERS[folder];
  const up = `^(\\.\\./){${depth}}`;
  const names = [];
  for (const other of MAIN_FOLDERS) {
    if (other === folder || allowed.includes(other)) continue;
    const only = allowed.filter((a) => a.startsWith(`${other}/`)).map((a) => escape(a.slice(other.length + 1)));
    names.push(only.length > 0 ? `${escape(other)}/(?!(${only.join('|')})$)` : `${escape(other)}(/|$)`);
  }
  const message = `src-main/${folder}/ may import only src-shared${allowed.length ? ` and ${allowed.join(', ')}` : ''} (layer rules: docs/architecture.md)`;
  return { regex: `${up}(${names.join('|')})`, message };
}

// Renderer layers: the folders of src-renderer each folder may import besides itself, src-shared and
// the pure DSP of src-main/audio/; lowest first, as docs/architecture.md draws them. '*' is one name:
// the store is composed from the feature slices (and the shell's), its one upward arrow. Features
// import the folders below them and never each other (features/<a>/ may not reach features/<b>/);
// the app shell composes features. Test helpers (testing/) are exempt like every test.
const RENDERER_LAYERS = {
  ipc: [],
  components: [],
  store: ['features/*/*.slice', 'app/shell.slice'],
  'shared-state': ['components', 'store', 'ipc'],
  features: ['components', 'store', 'ipc', 'shared-state'],
  app: ['components', 'store', 'ipc', 'shared-state', 'features'],
  testing: ['ipc', 'store'],
};
const RENDERER_FOLDERS = Object.keys(RENDERER_LAYERS);
const RENDERER_MAX_DEPTH = 3; // folder levels below src-renderer/: features/<name>/<one more> (2 today)
const globPart = (s) => escape(s).replace(/\\\*/g, '[^/]+');
/** The renderer folders `folder` may not import, as regexes on specifiers written from `depth` levels below src-renderer/. */
function forbiddenRendererFolders(folder, depth) {
  const allowed = RENDERER_LAYERS[folder];
  const names = [];
  for (const other of RENDERER_FOLDERS) {
    if (other === folder || allowed.includes(other)) continue;
    const only = allowed.filter((a) => a.startsWith(`${other}/`)).map((a) => globPart(a.slice(other.length + 1)));
    names.push(only.length > 0 ? `${escape(other)}/(?!(${only.join('|')})$)` : `${escape(other)}(/|$)`);
  }
  const cells = [{
    regex: `^(\\.\\./){${depth}}(${names.join('|')})`,
    message: `src-renderer/${folder}/ may import only src-shared${allowed.length ? ` and ${allowed.join(', ')}` : ''} (layer rules: docs/architecture.md)`,
  }];
  // features/<a>/…: a path that climbs out of its own feature folder lands in another feature (so does ../../features/)
  if (folder === 'features' && depth >= 2) cells.push({ regex: `^(\\.\\./){${depth - 1}}([^./]|\\.\\./features/)`, message: 'a feature never imports another feature: move what both need down (components/, store/, shared-state/) or compose them in app/ (layer rules: docs/architecture.md)' });
  return cells;
}

// The ONNX Runtime adapters sit below engine/runtime/ort.ts: only files in engine/runtime/ import them
// (there as './node-runtime' or './capi/…', which this pattern does not match).
const ADAPTERS = { regex: '(^|/)runtime/(node-runtime$|capi(/|$))', message: 'only src-main/engine/runtime/ imports the ONNX Runtime adapters (node-runtime.ts, capi/): open sessions through engine/runtime/ort.ts' };

/** Layer cells: [files glob, patterns, ignores?], one per folder and depth, plus src-shared, the preload, the renderer and engine tests. */
const ABOVE_SRC_MAIN = (depth) => ({ regex: `^(\\.\\./){${depth + 1}}(src-renderer|src-preload)(/|$)`, message: 'src-main never imports the renderer or the preload' });
// Product code (src-main, src-shared, src-preload, src-renderer; tests aside) never imports the
// top-level lab/, scripts/ or e2e/. `ups` is the number of ../ that reach the repository root from the
// file; null: any (src-shared, the preload and the renderer have no folder of those names).
const NOT_PRODUCT = (ups) => ({
  regex: `^(\\.\\./)${ups === null ? '+' : `{${ups}}`}(lab|scripts|e2e)(/|$)`,
  message: 'product code never imports lab/, scripts/ or e2e/ (probes, tools and app tests import it, not the other way)',
});
// Exception: the renderer shares the pure DSP of src-main/audio/ (loudness, true peak, WAV) so
// previews measure what exports write; audio/ imports no electron or ORT (above) and the renderer's
// build refuses Node built-ins.
const RENDERER_OFF_MAIN = { regex: '^(\\.\\./)+(src-main/(?!audio/)|src-preload/)', message: 'the renderer talks to main only through ipc/client.ts (it may share the pure DSP of src-main/audio/)' };
const LAYER_CELLS = [
  ...MAIN_FOLDERS.flatMap((folder) =>
    Array.from({ length: MAX_DEPTH }, (_, i) => [
      `src-main/${folder}/${'*/'.repeat(i)}*`,
      [...(ROOTS.includes(folder) ? [] : [forbiddenFolders(folder, i + 1)]), ABOVE_SRC_MAIN(i + 1), ADAPTERS, NOT_PRODUCT(i + 2)],
    ]),
  ),
  ['src-main/main.ts', [ABOVE_SRC_MAIN(0), NOT_PRODUCT(1)]],
  ['src-main/engine-host.ts', [{ regex: `^\\./(?!(engine-host|engine-protocol)/)[^.]`, message: 'the engine host entry imports only engine-host/ and engine-protocol/ (and src-shared)' }, NOT_PRODUCT(1)]],
  ['src-shared/**', [{ regex: '^(\\.\\./)+(src-main|src-renderer|src-preload)(/|$)', message: 'src-shared imports nothing of src-main, src-renderer or src-preload' }, NOT_PRODUCT(null)]],
  ['src-preload/**', [{ regex: '^(\\.\\./)+(src-main|src-renderer)(/|$)', message: 'the preload imports only src-shared' }, NOT_PRODUCT(null)]],
  // The renderer: its own layers (RENDERER_LAYERS) per folder and depth, plus the line to main below.
  ['src-renderer/*', [RENDERER_OFF_MAIN, NOT_PRODUCT(null)]],
  ...RENDERER_FOLDERS.flatMap((folder) =>
    Array.from({ length: RENDERER_MAX_DEPTH }, (_, i) => [
      `src-renderer/${folder}/${'*/'.repeat(i)}*`,
      [...forbiddenRendererFolders(folder, i + 1), RENDERER_OFF_MAIN, NOT_PRODUCT(null)],
    ]),
  ),
  ...ENGINE_TESTS.map((glob) => [glob, [{
    regex: `^(\\.\\./)+model-builder/(?!(${ENGINE_TEST_FIXTURES.map(escape).join('|')})$)`,
    message: `engine tests may import from src-main/model-builder/ only its fixtures (${ENGINE_TEST_FIXTURES.join(', ')}); what the engine shares with the builder is in model-format/`,
  }], []]),
];

// The rules of this config that ESLint lacks. layers/imports is ESLint's no-restricted-imports (same
// options, same messages) that also reads import('x') and require('x') with a literal path, so a
// dynamic import crosses no layer a static one may not. layers/listed-folder refuses a file of
// src-main/ (src-renderer/) in a folder LAYERS and ROOTS (RENDERER_LAYERS) do not name, or deeper than the layer cells reach.
const CORE_IMPORTS = builtinRules.get('no-restricted-imports');
const literalPath = (node) => (node?.type === 'Literal' && typeof node.value === 'string' ? node : null);
const LAYERS_PLUGIN = {
  rules: {
    imports: {
      meta: { ...CORE_IMPORTS.meta, docs: { description: 'no-restricted-imports, also for import() and require() with a literal path' } },
      create(context) {
        const core = CORE_IMPORTS.create(context);
        // The core rule reads the source and the specifiers of an import declaration; a dynamic one has no names.
        const check = (node, source) => core.ImportDeclaration({ type: 'ImportDeclaration', source, specifiers: [], loc: node.loc, range: node.range, parent: node.parent });
        return {
          ...core,
          ImportExpression(node) {
            const source = literalPath(node.source);
            if (source) check(node, source);
          },
          CallExpression(node) {
            const source = node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments.length === 1 ? literalPath(node.arguments[0]) : null;
            if (source) check(node, source);
          },
        };
      },
    },
    'listed-folder': {
      meta: {
        type: 'problem',
        docs: { description: 'every folder of src-main/ (src-renderer/) is in its layer table' },
        schema: [{ type: 'object', properties: { root: { type: 'string' }, table: { type: 'string' }, folders: { type: 'array', items: { type: 'string' } }, maxDepth: { type: 'integer' } }, additionalProperties: false }],
      },
      create(context) {
        const { root = 'src-main', table = 'LAYERS', folders, maxDepth } = context.options[0];
        const parts = path.relative(context.cwd, context.filename).split(path.sep);
        if (parts[0] !== root || parts.length < 3) return {};
        const folder = parts[1];
        const depth = parts.length - 2;
        return {
          Program(node) {
            if (!folders.includes(folder)) {
              context.report({ node, message: `${root}/${folder}/ is not in the layer table: add it to ${table} in eslint.config.js (with what it may import) and to docs/architecture.md, or move the file into a listed folder` });
            } else if (depth > maxDepth) {
              context.report({ node, message: `${parts.join('/')} is ${depth} folders below ${root}/; the layer rules reach ${maxDepth}: flatten it or raise the depth in eslint.config.js` });
            }
          },
        };
      },
    },
  },
};

/** One layers/imports entry per package rule, then per package rule and layer cell (both apply there). */
function importRules() {
  const rule = (paths, patterns) => ({ 'layers/imports': ['error', { paths, patterns }] });
  const area = (glob) => glob.split('/').slice(0, glob.startsWith('src-main/') ? 2 : 1).join('/').replace(/\*+$/, '');
  return PACKAGE_RULES.flatMap(([files, paths, patterns]) => [
    files ? { files, rules: rule(paths, patterns) } : { rules: rule(paths, patterns) },
    ...LAYER_CELLS.filter(([cell]) => !files || files.some((f) => area(f) === area(cell))).map(([cell, layer, ignores = NOT_LAYERED]) => ({
      files: files ? files.map((f) => [f, cell]) : [cell],
      ...(ignores.length > 0 ? { ignores } : {}),
      rules: rule(paths, [...patterns, ...layer]),
    })),
  ]);
}

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.cache/**', '.device/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { layers: LAYERS_PLUGIN },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-empty-object-type': 'off',
      'no-restricted-syntax': ['error', WINDOW_STUDIO],
    },
  },
  ...importRules(),
  { files: ['src-main/**'], rules: { 'layers/listed-folder': ['error', { folders: MAIN_FOLDERS, maxDepth: MAX_DEPTH }] } },
  { files: ['src-renderer/**'], rules: { 'layers/listed-folder': ['error', { root: 'src-renderer', table: 'RENDERER_LAYERS', folders: RENDERER_FOLDERS, maxDepth: RENDERER_MAX_DEPTH }] } },
  {
    files: ['src-main/engine/**', 'src-main/engine-host/**', 'src-main/engine-client/**', 'src-main/engine-protocol/**', 'src-main/scheduler/**', 'src-main/audio/**'],
    ignores: ['**/*.test.ts', 'lab/gpu/**', '**/testing/**'],
    rules: { 'no-restricted-syntax': ['error', WINDOW_STUDIO, CALL_SPREAD] },
  },
  {
    files: ['src-renderer/ipc/**'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
