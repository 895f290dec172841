/**
 * `npm start`'s prestart: builds dist/ only when its stamp does not match the sources
 * (a fresh `npm ci` has already built it through `prepare`), so a start costs a hash of the
 * sources (a few ms) instead of a 6–11 s rebuild. Without src/ (an installed package) it does nothing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isBuildCurrent } from './build-stamp.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
if (existsSync(`${root}/src`) && !isBuildCurrent(root)) {
  process.stderr.write('notification-emulator: dist/ is missing or older than the sources; building it first\n');
  const build = spawnSync(process.execPath, [`${root}/scripts/build.mjs`], { cwd: root, stdio: 'inherit' });
  process.exit(build.status ?? 1);
}
