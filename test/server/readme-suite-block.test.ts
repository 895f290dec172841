/**
 * The README's test-suite block ("5. CI and Docker"), run as pasted: its import pointed at this
 * checkout's sources, run by node with tsx from an empty folder (no ./fixtures, no ./scenarios),
 * as a project that installed the package would run it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { blockWith } from '../helpers/markdown.js';

const folder = mkdtempSync(join(tmpdir(), 'readme-suite-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

it("runs the README's test-suite block as pasted, on the bundled examples", () => {
  const block = blockWith('README.md', 'ts', "from 'notification-emulator'");
  const sources = pathToFileURL(resolve('src/index.ts')).href;
  // .mts: an ES module, as in a project whose package.json says "type": "module" (top-level await).
  const file = join(folder, 'suite.mts');
  writeFileSync(file, block.replace("from 'notification-emulator'", `from '${sources}'`));
  const tsx = import.meta.resolve('tsx');
  const run = spawnSync(process.execPath, ['--import', tsx, file], { cwd: folder, encoding: 'utf8', timeout: 60_000 });
  expect(run.stderr).not.toMatch(/Error/);
  expect(run.status).toBe(0);
}, 90_000);
