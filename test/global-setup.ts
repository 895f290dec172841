/**
 * Builds dist/ once before the tests of the 'dist' project (vitest.config.ts), as `npm run build`
 * does (tsc, then the CLI bundle, then the web inspector), so tests that start the CLI run what
 * users run. Says once when the browser tests will be skipped.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  const browser = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!existsSync(browser)) {
    console.log(
      `Browser tests SKIPPED: no Chromium at ${browser}. Enable them with \`apt-get install chromium\` or ` +
        `CHROMIUM_PATH=/path/to/chromium.`,
    );
  }
}
