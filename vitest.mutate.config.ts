import { defineConfig } from 'vitest/config';

/**
 * The tests Stryker runs against each mutant (`npm run mutate`): the in-process ones (unit,
 * HTTP, store). The socket, CLI and browser tests add minutes per run and check the same
 * domain rules through a transport, so they stay out of mutation runs.
 */
/** `MUTATE_TESTS=test/unit/**,test/http/send*.test.ts` runs fewer tests while iterating on one file (a lower bound). */
const only = process.env.MUTATE_TESTS?.split(',').filter(Boolean);

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    setupFiles: ['test/fast-check-seed.ts'],
    include: only ?? ['test/unit/**/*.test.ts', 'test/http/**/*.test.ts', 'test/store/**/*.test.ts'],
    // The store's model-based property tests (seeded, test/fast-check-seed.ts) stay in: they
    // check the keyed log and the delivery indexes against a plain array, which the mutated
    // filter and index code must match. Coverage per test runs them only on the mutants they reach.
    exclude: ['test/http/inspector-page.test.ts'],
  },
});
