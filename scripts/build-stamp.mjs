/**
 * The build stamp: a hash of everything the build reads (src/, web/, the build script, the
 * TypeScript configs, package.json and the lock file), written to dist/.build-hash by the
 * build. `npm start`, `npm pack`, the test setup and the command in a checkout compare it
 * (ensureBuilt) and build only when it differs.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const STAMP = 'dist/.build-hash';
const INPUTS = [
  'src',
  'web',
  'scripts/build.mjs',
  'tsconfig.json',
  'tsconfig.build.json',
  'package.json',
  'package-lock.json',
];

function files(root, entry) {
  const path = join(root, entry);
  if (!existsSync(path)) return [];
  try {
    return readdirSync(path, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => relative(root, join(d.parentPath ?? d.path, d.name)));
  } catch {
    return [entry]; // a file, not a folder
  }
}

/** sha256 over the sorted paths and contents of the build's inputs. */
export function sourceHash(root) {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap((entry) => files(root, entry)).sort()) {
    hash.update(`${file.split('\\').join('/')}\0`);
    hash.update(readFileSync(join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Whether dist/ was built from exactly the current inputs. */
export function isBuildCurrent(root) {
  const stamp = join(root, STAMP);
  return existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === sourceHash(root);
}

/** Why dist/ needs a build, in the words of the one line that says so; undefined when it is current. */
function staleness(root) {
  if (existsSync(join(root, STAMP))) return isBuildCurrent(root) ? undefined : 'the sources changed';
  // The build removes the stamp first and writes it last: a dist/ without one was interrupted.
  return existsSync(join(root, 'dist')) ? 'the last build did not finish' : 'first run';
}

/**
 * Builds dist/ when it is missing, unfinished or older than the sources, after one line on
 * stderr; without src/ (an installed package) or with a current stamp it does nothing.
 * Returns the exit status: 0 when dist/ is ready.
 */
export function ensureBuilt(root) {
  const why = existsSync(join(root, 'src')) ? staleness(root) : undefined;
  if (why === undefined) return 0;
  process.stderr.write(`notification-emulator: building dist/ (${why})…\n`);
  const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
  return build.status ?? 1;
}
