/**
 * Builds dist/ once before the tests of the 'dist' project (vitest.config.ts), as `npm run build`
 * does (tsc, then the CLI bundle, then the web inspector), so tests that start the CLI run what
 * users run. Says once when the browser tests will be skipped.
 *
 * It builds only when dist/ is missing or older than the sources (scripts/ensure-built.mjs, the
 * stamp `npm start` checks too): every test file waits for this setup, so a rebuild of the same
 * sources would cost 6–11 s of each run for nothing. `npm ci` builds nothing: the first run does.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export default function setup(): void {
  execFileSync(process.execPath, ['scripts/ensure-built.mjs'], { stdio: 'inherit' });
  const browser = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!existsSync(browser)) {
    console.log(
      `Browser tests SKIPPED: no Chromium at ${browser}. Enable them with \`apt-get install chromium\` or ` +
        `CHROMIUM_PATH=/path/to/chromium.`,
    );
  }
}
