/**
 * A folder and its missing parents, created one level at a time. Node's own recursive mkdir
 * (`mkdirSync(dir, { recursive: true })`, Node 20) loops for ever where mkdir answers ENOENT
 * under a folder that exists, as under /proc: `--data-file /proc/x/state.json` spun at full
 * CPU, deaf to SIGTERM, instead of saying why it could not start. Here the first folder that
 * cannot be made throws its error (ENOENT, EACCES, EROFS…).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export function makeFolder(dir: string): void {
  const missing: string[] = [];
  for (let at = dir; !existsSync(at); at = dirname(at)) {
    missing.unshift(at);
    if (dirname(at) === at) break; // a root that does not exist: mkdir says why
  }
  for (const folder of missing) mkdirSync(folder);
}
