/**
 * Puts a fixture set in place all at once: the files are written to a temporary folder inside
 * the output folder, then `templates/` is swapped in with one rename and `channels.json` with
 * another. Other files of the output folder (apps.json, …) are left alone; files in
 * `templates/` that are not `*.json` are carried over. Nothing is touched when the set on
 * disk is already byte-identical.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { makeFolder } from '../platform/make-folder.js';
import { CHANNELS_FILE, TEMPLATES_DIR } from './fixture-set.js';

export interface WriteResult {
  changed: boolean;
  /** Relative paths added, changed or removed. */
  added: string[];
  updated: string[];
  removed: string[];
}

function readIfExists(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** What writing `files` would change in `outDir` (compared byte for byte). */
export function planFixtureWrite(outDir: string, files: Map<string, string>): WriteResult {
  const added: string[] = [];
  const updated: string[] = [];
  for (const [path, text] of files) {
    const current = readIfExists(join(outDir, path));
    if (current === null) added.push(path);
    else if (current !== text) updated.push(path);
  }
  const dir = join(outDir, TEMPLATES_DIR);
  const removed = existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name.endsWith('.json') && !files.has(`${TEMPLATES_DIR}/${name}`))
        .map((name) => `${TEMPLATES_DIR}/${name}`)
    : [];
  return { changed: added.length + updated.length + removed.length > 0, added, updated, removed: removed.sort() };
}

/**
 * Writes `files` into `outDir` (see above). `verify` is called with the temporary folder once
 * every file is in it, before anything is moved: a throw leaves `outDir` untouched.
 */
export function writeFixtureSet(
  outDir: string,
  files: Map<string, string>,
  verify: (tmpDir: string) => void = () => {},
): WriteResult {
  const plan = planFixtureWrite(outDir, files);
  if (!plan.changed) return plan;
  makeFolder(outDir);
  const tmp = mkdtempSync(join(outDir, '.pull-'));
  try {
    const newTemplates = join(tmp, TEMPLATES_DIR);
    mkdirSync(newTemplates);
    for (const [path, text] of files) {
      makeFolder(dirname(join(tmp, path)));
      writeFileSync(join(tmp, path), text);
    }
    verify(tmp);
    const liveTemplates = join(outDir, TEMPLATES_DIR);
    const hadTemplates = existsSync(liveTemplates);
    if (hadTemplates) {
      for (const name of readdirSync(liveTemplates).filter((n) => !n.endsWith('.json'))) {
        cpSync(join(liveTemplates, name), join(newTemplates, name), { recursive: true });
      }
      renameSync(liveTemplates, join(tmp, 'previous-templates'));
    }
    try {
      renameSync(newTemplates, liveTemplates);
    } catch (error) {
      if (hadTemplates) renameSync(join(tmp, 'previous-templates'), liveTemplates);
      throw error;
    }
    renameSync(join(tmp, CHANNELS_FILE), join(outDir, CHANNELS_FILE));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return plan;
}
