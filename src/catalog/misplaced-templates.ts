/**
 * Template files one folder too high: JSON files at the top of a fixtures folder (besides
 * its apps.json and channels.json) are most likely templates meant for its templates/ folder.
 */
import { readdirSync } from 'node:fs';

/** The files of the fixtures folder's own configuration, which belong at its top. */
const TOP_LEVEL_FILES = new Set(['apps.json', 'channels.json']);

/** The names of the JSON files at the top of `fixturesDir` that are not its configuration (none if unreadable). */
export function misplacedTemplateFiles(fixturesDir: string): string[] {
  try {
    return readdirSync(fixturesDir, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.json') && !TOP_LEVEL_FILES.has(entry.name))
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}
