/**
 * Reads fixtures/ (templates/*.json and apps.json), validates every file in one pass and
 * reports every problem with the file and field. Watches templates/ and reloads on
 * change, keeping the last good set when an edit is bad.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../domain/errors.js';
import type { Template } from '../schemas/records.js';
import { issueProblems } from '../schemas/issues.js';
import { parseTemplateFile, toVariableArray, type TemplateFileEntry } from '../schemas/template-file.js';
import { stableIdFromKey } from '../platform/random.js';
import { AppsFileSchema, type AppConfig } from './apps.js';
import { watchDirectory } from '../platform/watch-dir.js';

function readJson(file: string, problems: string[]): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    problems.push(`${file}: not valid JSON: ${(error as Error).message}`);
    return undefined;
  }
}

export function toTemplate(entry: TemplateFileEntry, nowIso: string, source: Template['source'] = 'fixture'): Template {
  const variableSchema = toVariableArray(entry.variableSchema);
  const contentChannels = Object.keys(entry.content);
  return {
    id: entry.id ?? stableIdFromKey(entry.key),
    key: entry.key,
    name: entry.name ?? entry.key,
    status: entry.status,
    channels: entry.channels ?? (contentChannels.length ? contentChannels : ['in_app']),
    variableSchema,
    content: entry.content,
    category: entry.category ?? null,
    appId: entry.appId ?? null,
    source,
    createdAt: nowIso,
    updatedAt: nowIso,
  };
}

/** Every template under `dir/templates`; throws ConfigError listing every problem. */
export function loadTemplates(fixturesDir: string, nowIso: string): Template[] {
  const dir = join(fixturesDir, 'templates');
  if (!existsSync(dir)) return [];
  const problems: string[] = [];
  const templates: Template[] = [];
  for (const name of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const file = join(dir, name);
    const json = readJson(file, problems);
    if (json === undefined) continue;
    const parsed = parseTemplateFile(json);
    if (!parsed.success) {
      problems.push(...issueProblems(parsed.error, file));
      continue;
    }
    const entries = Array.isArray(parsed.data) ? parsed.data : [parsed.data];
    for (const entry of entries) templates.push(toTemplate(entry, nowIso));
  }
  const seen = new Map<string, string>();
  for (const t of templates) {
    const scope = `${t.appId ?? '*'}/`;
    if (seen.has(scope + t.key)) problems.push(`${dir}: template key "${t.key}" is defined twice`);
    if (seen.has(scope + 'id:' + t.id)) problems.push(`${dir}: template id "${t.id}" is defined twice`);
    seen.set(scope + t.key, t.id);
    seen.set(scope + 'id:' + t.id, t.key);
  }
  if (problems.length) throw new ConfigError(problems);
  return templates;
}

/** `fixtures/apps.json` when present; [] otherwise. */
export function loadAppsFile(fixturesDir: string): AppConfig[] {
  const file = join(fixturesDir, 'apps.json');
  if (!existsSync(file)) return [];
  const problems: string[] = [];
  const json = readJson(file, problems);
  if (problems.length) throw new ConfigError(problems);
  const parsed = AppsFileSchema.safeParse(json);
  if (!parsed.success) throw new ConfigError(issueProblems(parsed.error, file));
  return parsed.data;
}

/** Calls `reload` (debounced) whenever a file under `dir/templates` changes. */
export function watchTemplates(fixturesDir: string, reload: () => void): () => void {
  return watchDirectory(join(fixturesDir, 'templates'), reload);
}
