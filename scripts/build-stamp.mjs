/**
 * The build stamp: a hash of everything the build reads (src/, web/, the build script, the
 * TypeScript configs, package.json and the lock file), written to dist/.build-hash by the
 * build. `npm start` compares it (scripts/ensure-built.mjs) and builds only when it differs.
 */
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
