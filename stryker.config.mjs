/**
 * Mutation testing (`npm run mutate`, not part of `npm test`: it takes well over an hour).
 * It mutates the service's rules (src/domain), the scenario engine and the store's filter and
 * index code, and runs the in-process tests (vitest.mutate.config.ts) against each mutant.
 * One file while iterating: `npm run mutate -- --mutate src/domain/notifications.ts`.
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts', related: true },
  mutate: [
    'src/domain/**/*.ts',
    '!src/domain/ports.ts',
    '!src/domain/ports/**',
    'src/scenario-engine/**/*.ts',
    // The store's filters and indexes: which records a filtered page holds, and its total.
    'src/store/common/keyed-log.ts',
    'src/store/common/position-index.ts',
    'src/store/common/filter-keys.ts',
    'src/store/common/intersect.ts',
    'src/store/common/counted-index.ts',
    'src/store/campaigns/campaign-index.ts',
    'src/store/deliveries/delivery-index.ts',
    'src/store/deliveries/delivery-query.ts',
    'src/store/deliveries/delivery-reads.ts',
  ],
  coverageAnalysis: 'perTest',
  concurrency: 2,
  timeoutMS: 30_000,
  // The first run measures which test covers which mutant: minutes on two busy cores.
  dryRunTimeoutMinutes: 40,
  reporters: ['clear-text', 'progress', 'html'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  thresholds: { high: 90, low: 85, break: null },
  // Module-level tables (the campaign and recipient transition tables) decide answers too; a
  // static mutant reruns every test the run uses, which costs little with the few that reach a file.
  ignoreStatic: false,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  // Reruns only retest mutants whose code or covering tests changed (reports/stryker-incremental.json).
  incremental: true,
};
