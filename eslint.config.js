// @ts-check
/**
 * ESLint: typescript-eslint's recommended rules, plus the type-aware rules that catch
 * promises nobody awaits (a failed write or send that would vanish silently).
 */
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', '.stryker-tmp/', 'reports/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Prettier wraps code at 120; this catches the strings and comments it leaves long.
      // A variable a closure reads before its one assignment (cli.ts) stays `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      'max-len': ['error', { code: 120, ignoreUrls: true }],
    },
  },
  {
    // On a socket, c.req.header() makes @hono/node-server build a Headers object per request:
    // request headers are read through src/http/plain-headers.ts, which reads Node's instead.
    files: ['src/**/*.ts'],
    ignores: ['src/http/plain-headers.ts', 'src/client/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='header'][callee.object.property.name='req']",
          message: 'Read request headers with requestHeader(c, name) from src/http/plain-headers.ts.',
        },
      ],
    },
  },
  {
    // Functions a reader can hold: a service is a few named top-level functions over its
    // dependencies, not one long closure (blank lines and comments count).
    files: ['src/**/*.ts', 'web/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 100 }] },
  },
  {
    // The only `any` of the project: these two walk the OpenAPI document as plain JSON (its shape is
    // OpenAPI 3.1's, not ours: no schema of ours describes it, and typing every level they read would
    // be a second OpenAPI model). Everywhere else a value of unknown shape is `unknown`, narrowed.
    files: ['test/helpers/openapi.ts', 'test/openapi/document.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Browser globals declared for page.evaluate callbacks (no DOM library in the Node typecheck).
    files: ['test/browser/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_|^requestAnimationFrame$' },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
