// ESLint flat config. Besides the usual TypeScript and React rules it enforces the
// layering of DESIGN.md: the runtime never imports electron, src-shared imports no Node,
// electron or DOM, and the renderer never imports src-main; and the folder map of
// docs/architecture.md (eslint/layers.js): imports between our folders point down.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { builtinModules } from 'node:module';
import { layersPlugin } from './eslint/layers.js';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
const electronPatterns = ['electron', 'electron/*'];

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'bench/results/**',
      // Electron's own declarations, copied unchanged (types/electron/README.md)
      'types/electron/electron.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src-main/**/*.ts', 'src-shared/**/*.ts', 'src-renderer/**/*.{ts,tsx}'],
    plugins: { workbench: layersPlugin },
    rules: { 'workbench/layers': 'error' },
  },
  {
    // Small files with one job: at most 400 lines of code (comments and blank lines not
    // counted) in a source file; tests may be longer.
    files: ['src-main/**/*.ts', 'src-shared/**/*.ts', 'src-renderer/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', '**/testing/**'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }] },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: [
      'src-main/**/*.ts',
      'e2e/**/*.ts',
      'bench/**/*.ts',
      'scripts/**/*.{js,mjs}',
      'bin/**/*.js',
      '*.config.{ts,js}',
    ],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/src-main/**', '@main/*'],
              message: 'The renderer talks to the runtime only through AppApi (src-shared/ipc.ts).',
            },
            {
              group: electronPatterns,
              message: 'The renderer never imports electron; use the AppApi.',
            },
          ],
          paths: nodeBuiltins.map((name) => ({
            name,
            message: 'The renderer runs in a browser: no Node modules.',
          })),
        },
      ],
    },
  },
  {
    files: ['src-main/runtime/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: electronPatterns,
              message:
                'src-main/runtime is plain Node: it never imports electron (DESIGN.md section 1).',
            },
            {
              group: ['**/host/**', '**/electron/**', '**/cli/**', '**/src-renderer/**'],
              message: 'The runtime does not depend on its hosts.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src-shared/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: electronPatterns, message: 'src-shared imports neither Node nor electron.' },
            {
              group: ['**/src-main/**', '**/src-renderer/**'],
              message: 'src-shared depends on nothing of ours.',
            },
          ],
          paths: nodeBuiltins.map((name) => ({
            name,
            message: 'src-shared imports no Node module (it runs in the renderer too).',
          })),
        },
      ],
      'no-restricted-globals': [
        'error',
        ...[
          'window',
          'document',
          'navigator',
          'localStorage',
          'HTMLElement',
          'process',
          'Buffer',
          'require',
          '__dirname',
        ].map((name) => ({
          name,
          message: 'src-shared uses no DOM and no Node globals.',
        })),
      ],
    },
  },
);
