/**
 * Mutation testing (`npm run mutate`, not part of `npm test`: it takes many minutes).
 * It mutates the service's rules (src/domain), the scenario matcher and the store's filters,
 * and runs the in-process tests (vitest.mutate.config.ts) against each mutant.
 * One file while iterating: `npm run mutate -- --mutate src/domain/notifications.ts`.
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts', related: true },
  mutate: [
    'src/domain/**/*.ts',
    '!src/domain/ports.ts',
    '!src/domain/ports/**',
    'src/scenario-engine/match.ts',
    'src/domain/record-filters.ts',
  ],
  coverageAnalysis: 'perTest',
  concurrency: 2,
  timeoutMS: 30_000,
  // The first run measures which test covers which mutant: minutes on two busy cores.
  dryRunTimeoutMinutes: 40,
  reporters: ['clear-text', 'progress', 'html'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  thresholds: { high: 90, low: 85, break: null },
  ignoreStatic: true,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  // Reruns only retest mutants whose code or covering tests changed (reports/stryker-incremental.json).
  incremental: true,
};
