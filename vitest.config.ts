import { defineConfig } from 'vitest/config';

/**
 * Tests that run what users install (node dist/cli.js, npm pack, the built inspector): only they need dist/.
 * The fuzz suite is one: its requests reach the inspector's page, which answers 503 until dist/ui is built.
 */
const DIST_TESTS = [
  'test/browser/**/*.test.ts',
  'test/deploy/cluster.test.ts',
  'test/deploy/local-cluster-args.test.ts',
  'test/fuzz/fuzz.test.ts',
  'test/http/inspector-page.test.ts',
  'test/server/ci-guide.test.ts',
  'test/server/cli.test.ts',
  'test/server/cli-commands.test.ts',
  'test/server/cli-bundle.test.ts',
  'test/server/data-file.test.ts',
  'test/server/generate-csv-cli.test.ts',
  'test/server/npm-start.test.ts',
  'test/server/package.test.ts',
  'test/server/pull-cli.test.ts',
  'test/server/trace-cli.test.ts',
  'test/server/verify-cli.test.ts',
];

/** Files that replace a module with vi.mock: the mock must neither leak into nor miss a shared module graph. */
const ISOLATED_TESTS = ['test/http/watch-errors.test.ts', 'test/unit/scenario-files-order.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Property tests draw from one fixed seed, so a run can be repeated (FC_SEED picks another).
    setupFiles: ['test/fast-check-seed.ts'],
    // Vitest's default is one worker fewer than the cores: one on the 2-core CI machine. Many
    // files wait on a browser, a child process or a socket, so two run side by side in about
    // two thirds of the time.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        // One module graph per worker instead of one per file: each file otherwise imports the app
        // (hono, zod, faker, ...) anew, ~1 s a file, over two minutes of the run. Safe because the
        // code keeps no module-level mutable state and these files patch nothing global for good
        // (spies are restored); the files that mock a module run isolated below.
        test: {
          name: 'src',
          include: ['test/**/*.test.ts'],
          exclude: [...DIST_TESTS, ...ISOLATED_TESTS],
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'isolated', include: ISOLATED_TESTS },
      },
      {
        extends: true,
        // Builds dist/ once (tsc, then the CLI bundle) before the tests that run it; no other test waits for it.
        // Shares modules between files too (the fuzz and browser files import the app and playwright).
        test: { name: 'dist', include: DIST_TESTS, globalSetup: ['test/global-setup.ts'], isolate: false },
      },
    ],
  },
});
