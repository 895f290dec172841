/**
 * Tests never read the repository's ./fixtures folder directly: a user following the README and
 * its guides may have put an apps.json there (strict auth), which would turn every test request
 * into a 401. These helpers copy only the bundled templates into a fresh temporary folder.
 */
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REPO_TEMPLATES = join(process.cwd(), 'fixtures', 'templates');

/** A temporary fixtures folder holding a copy of the bundled templates (and no apps.json). */
export function bundledTemplatesCopy(prefix = 'emu-fixtures-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cpSync(REPO_TEMPLATES, join(dir, 'templates'), { recursive: true });
  return dir;
}
