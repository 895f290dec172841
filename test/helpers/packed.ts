/**
 * The package as an adopter installs it: `npm pack` in the repository, then, in an empty
 * project, `npm i -D ./notification-emulator-<version>.tgz` as the README says. For the tests
 * of the `dist` project (dist/ is built by their global setup, so the pack skips `prepack`).
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
export const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

export interface PackedProject {
  /** The temporary folder holding the tarball and the project (remove it when done). */
  dir: string;
  /** The adopter's project, with the package installed as a dev dependency. */
  project: string;
  /** What the install printed on stderr: npm's warnings would be here. */
  installStderr: string;
}

export async function installPacked(prefix = 'emu-pack-'): Promise<PackedProject> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  await run(npm, ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: process.cwd() });
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack wrote no tarball into ${dir}`);
  const project = join(dir, 'project');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'adopter', version: '1.0.0', private: true, type: 'module' }),
  );
  cpSync(join(dir, tarball), join(project, tarball));
  // The dependencies come from npm's cache when they are there (the registry otherwise).
  const installed = await run(npm, ['install', '-D', '--no-audit', '--no-fund', '--prefer-offline', `./${tarball}`], {
    cwd: project,
    timeout: 120_000,
  });
  return { dir, project, installStderr: installed.stderr };
}
