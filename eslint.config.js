// ESLint flat config: TypeScript rules plus the import boundaries of house-style.md, enforced per
// folder the VS Code way (no-restricted-imports): only the ORT adapters (engine/runtime/) import
// onnxruntime-node, only the C-API adapter (engine/runtime/capi/) imports koffi;
// scheduler/ssml/audio/src-shared stay free of electron, react and onnxruntime-node; only
// src-renderer/ipc touches window.studio; Electron is imported only where the app is wired; no
// spread arguments on the request path (engine, engine host, scheduler, audio); only the codec
// adapter (src-main/audio/codec-runtime.ts) imports the audio codec runtimes.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const ORT = { name: 'onnxruntime-node', message: 'only the ONNX Runtime adapters in src-main/engine/runtime/ may import onnxruntime-node' };
const KOFFI = { name: 'koffi', message: 'only the C-API adapter in src-main/engine/runtime/capi/ may import koffi' };
const ELECTRON = { name: 'electron', message: 'electron is imported only by main.ts, ipc/, engine-client/utility-host.ts, desktop/electron-*.ts and the preload' };
const REACT = { name: 'react', message: 'pure modules must not import react' };
const CODECS = { group: ['mediabunny', '@mediabunny/*', 'opusscript'], message: 'only src-main/audio/codec-runtime.ts imports the codec runtimes; call encode-audio.ts' };
const WINDOW_STUDIO = { selector: "MemberExpression[object.name='window'][property.name='studio']", message: 'only src-renderer/ipc/ touches window.studio' };
// f(...xs) passes every element as an argument: an input-sized xs overflows the stack ("Maximum
// call stack size exceeded" on 1 MB of text). The request path uses loops or reduce instead.
const CALL_SPREAD = {
  selector: 'CallExpression > SpreadElement, NewExpression > SpreadElement',
  message: 'no spread arguments on the request path (push(...xs), Math.min(...xs)): a long input overflows the stack; use a loop or reduce',
};

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.cache/**', '.device/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-empty-object-type': 'off',
      'no-restricted-imports': ['error', { paths: [ORT, KOFFI, ELECTRON], patterns: [CODECS] }],
      'no-restricted-syntax': ['error', WINDOW_STUDIO],
    },
  },
  {
    files: ['src-main/engine/runtime/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [KOFFI, ELECTRON], patterns: [CODECS] }] },
  },
  {
    files: ['src-main/engine/runtime/capi/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [ELECTRON], patterns: [CODECS] }] },
  },
  {
    files: ['src-main/main.ts', 'src-main/ipc/**', 'src-main/engine-client/utility-host.ts', 'src-main/desktop/electron-*.ts', 'src-preload/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [ORT], patterns: [CODECS] }] },
  },
  {
    files: ['src-main/scheduler/**', 'src-main/ssml/**', 'src-main/audio/**', 'src-shared/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [ORT, ELECTRON, REACT, { name: 'react-dom', message: 'pure modules must not import react-dom' }], patterns: [CODECS] }] },
  },
  {
    files: ['src-main/audio/codec-runtime.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [ORT, ELECTRON, REACT, { name: 'react-dom', message: 'pure modules must not import react-dom' }] }] },
  },
  {
    files: ['src-shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [ORT, ELECTRON, REACT], patterns: [CODECS, { group: ['node:*', 'fs', 'path', 'os', 'child_process'], message: 'src-shared is types and constants only: no Node imports' }] },
      ],
    },
  },
  {
    files: ['src-renderer/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [ORT, ELECTRON],
          patterns: [
            CODECS,
            { group: ['node:*'], message: 'the renderer runs in a sandboxed browser: no Node imports' },
            { group: ['**/src-main/engine/**', '**/src-main/engine-host/**', '**/src-main/engine-client/**', '**/src-main/engine-protocol/**', '**/src-main/services/**', '**/src-main/library/**', '**/src-main/models/**'], message: 'the renderer talks to main only through ipc/client.ts' },
          ],
        },
      ],
    },
  },
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
