/**
 * The package version, read once from package.json: the nearest one above this module (src/,
 * dist/, or dist/chunks/ when the bundler moves this code into a chunk shared by lazy imports).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function packageJsonPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'package.json');
}

export const VERSION: string = (JSON.parse(readFileSync(packageJsonPath(), 'utf8')) as { version: string }).version;
