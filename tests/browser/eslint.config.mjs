// Lint of the browser extension (extension/, browser code with the
// extension API) and of these tests (Node). Run from the source folder:
//   tests/browser/node_modules/.bin/eslint -c tests/browser/eslint.config.mjs extension tests/browser
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['**/node_modules/**'] },
  js.configs.recommended,
  {
    files: ['extension/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: { ...globals.browser, ...globals.serviceworker, chrome: 'readonly' },
    },
  },
  {
    files: ['tests/browser/**/*.mjs'],
    // Node, and functions that puppeteer runs in the page.
    languageOptions: { sourceType: 'module', globals: { ...globals.node, ...globals.browser, chrome: 'readonly' } },
  },
  {
    rules: {
      'no-unused-vars': ['error', { args: 'after-used' }],
      eqeqeq: 'error',
      'no-implicit-globals': 'error',
      'prefer-const': 'error',
      'no-var': 'error',
      'no-restricted-properties': ['error',
        { property: 'innerHTML', message: 'documents go into pages as text nodes' },
        { property: 'outerHTML', message: 'documents go into pages as text nodes' },
        { property: 'insertAdjacentHTML', message: 'documents go into pages as text nodes' }],
      'no-eval': 'error',
      'no-implied-eval': 'error',
    },
  },
];
