/**
 * Builds dist/ once before the tests of the 'dist' project (vitest.config.ts), as `npm run build`
 * does: tsc, then the CLI bundle, so tests that start the CLI run what users run.
 */
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
}
