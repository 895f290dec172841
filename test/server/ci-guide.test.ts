/**
 * docs/ci.md's test project, run as pasted: every `ts` block that opens with a `// path`
 * comment is written to that path of an empty project that installed the packed package, and
 * vitest (the project's own, linked in) runs it. The guide's tests then pass against the
 * emulator its global setup starts, on the package's bundled examples (the project has no
 * fixtures or scenarios of its own), with no warning from the emulator or from vitest.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeBlocks } from '../helpers/markdown.js';
import { installPacked, type PackedProject } from '../helpers/packed.js';

const run = promisify(execFile);
let packed: PackedProject;

beforeAll(async () => {
  packed = await installPacked('emu-ci-guide-');
  // The guide's project has vitest as a dev dependency: this one links the repository's.
  symlinkSync(join(process.cwd(), 'node_modules', 'vitest'), join(packed.project, 'node_modules', 'vitest'), 'dir');
  for (const [path, text] of guideFiles()) {
    mkdirSync(dirname(join(packed.project, path)), { recursive: true });
    writeFileSync(join(packed.project, path), text);
  }
}, 180_000);
afterAll(() => rmSync(packed.dir, { recursive: true, force: true }));

/** This process's environment without what the running vitest set for its workers. */
const outsideVitest = () =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')));

/** The guide's files: each `ts` block whose first line is a `// path` comment, by path. */
function guideFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const block of codeBlocks(readFileSync('docs/ci.md', 'utf8'), 'ts')) {
    const path = /^\/\/ ([\w./-]+\.ts)\b/.exec(block)?.[1];
    if (!path) continue;
    expect(files.has(path), `two blocks write ${path}`).toBe(false);
    files.set(path, block);
  }
  return files;
}

describe("the CI guide's test project", () => {
  it('passes with `vitest run` in an empty project that installed the package', async () => {
    expect([...guideFiles().keys()].sort()).toEqual([
      'test/campaigns.test.ts',
      'test/emulator-setup.ts',
      'test/messaging.ts',
      'test/orders.test.ts',
      'vitest.config.ts',
    ]);
    const vitest = join(process.cwd(), 'node_modules', 'vitest', 'vitest.mjs');
    const result = await run(process.execPath, [vitest, 'run', '--reporter', 'verbose'], {
      cwd: packed.project,
      env: { ...outsideVitest(), CI: '1', NO_COLOR: '1' },
      timeout: 240_000,
    }).catch((error: { stdout: string; stderr: string }) => ({ ...error, failed: true }));
    const output = `${result.stdout}\n${result.stderr}`;
    expect('failed' in result, output).toBe(false);
    expect(output).toMatch(/Tests\s+4 passed \(4\)/);
    // Neither the emulator (a folder it cannot read) nor vitest (a removed option) warns.
    expect(output).not.toMatch(/DEPRECATED|\[notification-emulator\] warn/);
  }, 300_000);

  it('typechecks under tsc --strict, with the types the package and vitest ship', async () => {
    // The tsconfig of a strict ES module project.
    writeFileSync(
      join(packed.project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, module: 'nodenext', target: 'es2022', types: ['node'] },
        include: ['vitest.config.ts', 'test'],
      }),
    );
    symlinkSync(join(process.cwd(), 'node_modules', '@types'), join(packed.project, 'node_modules', '@types'), 'dir');
    const tsc = join(process.cwd(), 'node_modules', 'typescript', 'bin', 'tsc');
    const checked = await run(process.execPath, [tsc, '-p', '.'], { cwd: packed.project, timeout: 240_000 }).then(
      () => '',
      (error: { stdout: string }) => error.stdout,
    );
    expect(checked).toBe('');
  }, 300_000);
});
