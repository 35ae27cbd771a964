// ESLint flat config: TypeScript rules plus the import boundaries of house-style.md, enforced per
// folder the VS Code way (no-restricted-imports): only the ORT adapter imports onnxruntime-node;
// scheduler/ssml/audio/src-shared stay free of electron, react and onnxruntime-node; only
// src-renderer/ipc touches window.studio; Electron is imported only where the app is wired; no
// spread arguments on the request path (engine, engine host, scheduler, audio).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const ORT = { name: 'onnxruntime-node', message: 'only src-main/engine/runtime/ort.ts may import onnxruntime-node' };
const ELECTRON = { name: 'electron', message: 'electron is imported only by main.ts, ipc/, engine-host/utility-host.ts and the preload' };
const REACT = { name: 'react', message: 'pure modules must not import react' };
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
      'no-restricted-imports': ['error', { paths: [ORT, ELECTRON] }],
      'no-restricted-syntax': ['error', WINDOW_STUDIO],
    },
  },
  {
    files: ['src-main/engine/runtime/ort.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [ELECTRON] }] },
  },
  {
    files: ['src-main/main.ts', 'src-main/ipc/**', 'src-main/engine-host/utility-host.ts', 'src-preload/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [ORT] }] },
  },
  {
    files: ['src-main/scheduler/**', 'src-main/ssml/**', 'src-main/audio/**', 'src-shared/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [ORT, ELECTRON, REACT, { name: 'react-dom', message: 'pure modules must not import react-dom' }] }] },
  },
  {
    files: ['src-shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [ORT, ELECTRON, REACT], patterns: [{ group: ['node:*', 'fs', 'path', 'os', 'child_process'], message: 'src-shared is types and constants only: no Node imports' }] },
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
            { group: ['node:*'], message: 'the renderer runs in a sandboxed browser: no Node imports' },
            { group: ['**/src-main/engine/**', '**/src-main/engine-host/**', '**/src-main/services/**', '**/src-main/library/**', '**/src-main/models/**'], message: 'the renderer talks to main only through ipc/client.ts' },
          ],
        },
      ],
    },
  },
  {
    files: ['src-main/engine/**', 'src-main/engine-host/**', 'src-main/scheduler/**', 'src-main/audio/**'],
    ignores: ['**/*.test.ts', 'src-main/engine/lab/**', '**/testing/**'],
    rules: { 'no-restricted-syntax': ['error', WINDOW_STUDIO, CALL_SPREAD] },
  },
  {
    files: ['src-renderer/ipc/**'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
