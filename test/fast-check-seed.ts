/**
 * One seed for every fast-check property (vitest setupFiles): a run draws the same cases each
 * time, so a failure seen once is seen again. `FC_SEED=<n>` draws another set; a failing
 * property prints its seed and path, which its own `{ seed, path }` options replay.
 */
import fc from 'fast-check';

const seed = Number(process.env.FC_SEED ?? 20261202);
if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be an integer, got "${process.env.FC_SEED}"`);
fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
