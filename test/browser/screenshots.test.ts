/**
 * `npm run screenshots` remakes docs/images from seeded data: two runs must write the same bytes,
 * or a regenerated picture would show a change that is not one. Four views, the ones whose
 * pictures used to differ (request durations, uptime and memory, the port in a curl, antialiased
 * corners), each run with its own emulator and browser as the script's are.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HAS_BROWSER } from './harness.js';
import { takeScreenshots } from './screenshot-run.js';

const VIEWS = ['requests', 'request', 'clock', 'overview'];

describe.skipIf(!HAS_BROWSER)('npm run screenshots', () => {
  const dirs = [mkdtempSync(join(tmpdir(), 'shots-a-')), mkdtempSync(join(tmpdir(), 'shots-b-'))] as const;
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('writes byte-identical pictures on two runs', async () => {
    // side by side: the runs load each other as two machines' loads differ, and it halves the wait
    const [first, second] = await Promise.all([takeScreenshots(dirs[0], VIEWS), takeScreenshots(dirs[1], VIEWS)]);
    expect(first.files.map((f) => basename(f))).toEqual(VIEWS.map((v) => `${v}.png`));
    expect([...first.problems, ...second.problems]).toEqual([]);
    const differing = first.files.filter((file, i) => !readFileSync(file).equals(readFileSync(second.files[i]!)));
    expect(differing.map((f) => basename(f))).toEqual([]);
  }, 60_000);
});
