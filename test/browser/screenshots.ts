/**
 * `npm run screenshots`: a PNG of each view of the web inspector over seeded data, written to
 * docs/images/ (the README and docs/web-inspector.md show some of them), the same bytes on every
 * run (screenshot-run.ts). `-- DIR` writes them elsewhere.
 */
import { CHROMIUM, HAS_BROWSER } from './harness.js';
import { takeScreenshots } from './screenshot-run.js';

if (!HAS_BROWSER) {
  console.error(`No browser at ${CHROMIUM}: install chromium (apt-get install chromium) or set CHROMIUM_PATH.`);
  process.exit(2);
}
const { files, problems } = await takeScreenshots(process.argv[2] ?? 'docs/images');
for (const file of files) console.log(file);
for (const problem of problems) console.error(problem);
if (problems.length) process.exitCode = 1;
