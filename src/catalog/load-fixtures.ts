/**
 * Reads fixtures/ (templates/*.json and apps.json), validates every file in one pass and
 * reports every problem with the file and field. Watches templates/ and reloads on
 * change, keeping the last good set when an edit is bad.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { ConfigError } from '../domain/errors.js';
import type { Template } from '../schemas/records.js';
import { parseTemplateFile, toVariableArray, type TemplateFileEntry } from '../schemas/template-file.js';
import { stableIdFromKey } from '../platform/random.js';
import { AppsFileSchema, type AppConfig } from './apps.js';
import { watchDirectory } from '../platform/watch-dir.js';
import { flattenIssues } from '../schemas/issues.js';

/**
 * `file: field "1.variableSchema.0.type" (variable "total"): must be one of …` for each issue.
 * With the parsed `input`, a problem inside a variableSchema entry names the variable.
 */
export function formatZodIssues(file: string, error: z.ZodError, input?: unknown): string[] {
  return flattenIssues(error.issues).map((issue) => {
    const field = issue.path.length ? issue.path.join('.') : '(root)';
    const variable = variableAt(input, issue.path);
    return `${file}: field "${field}"${variable ? ` (variable "${variable}")` : ''}: ${issue.message}`;
  });
}

/** The variable a path inside `…variableSchema.<index or name>…` points at, if any. */
function variableAt(input: unknown, path: PropertyKey[]): string | undefined {
  const at = path.indexOf('variableSchema');
  if (at < 0 || at + 1 >= path.length) return undefined;
  const entry = path[at + 1]!;
  if (typeof entry === 'string') return entry;
  let value: unknown = input;
  for (const segment of path.slice(0, at + 2)) value = (value as Record<PropertyKey, unknown> | undefined)?.[segment];
  const key = (value as { key?: unknown } | undefined)?.key;
  return typeof key === 'string' ? key : undefined;
}

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
  const fileOf: string[] = [];
  for (const name of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const file = join(dir, name);
    const json = readJson(file, problems);
    if (json === undefined) continue;
    const parsed = parseTemplateFile(json);
    if (!parsed.success) {
      problems.push(...formatZodIssues(file, parsed.error, json));
      continue;
    }
    const entries = Array.isArray(parsed.data) ? parsed.data : [parsed.data];
    for (const entry of entries) {
      templates.push(toTemplate(entry, nowIso));
      fileOf.push(file);
    }
  }
  // Where each key and id was first defined, so a duplicate names both files.
  const seen = new Map<string, string>();
  templates.forEach((t, i) => {
    const file = fileOf[i]!;
    const scope = `${t.appId === null ? 'shared' : `app ${t.appId}`}`;
    for (const [what, value] of [
      ['key', t.key],
      ['id', t.id],
    ] as const) {
      const first = seen.get(`${scope}/${what}:${value}`);
      if (first !== undefined)
        problems.push(
          `${file}: template ${what} "${value}" is defined twice (${scope}): in ${first} and in ${file}` +
            (first === file ? ' (twice in the same file)' : ''),
        );
      else seen.set(`${scope}/${what}:${value}`, file);
    }
  });
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
  if (!parsed.success) throw new ConfigError(formatZodIssues(file, parsed.error));
  return parsed.data;
}

/** Calls `reload` (debounced) whenever a file under `dir/templates` changes. */
export function watchTemplates(fixturesDir: string, reload: () => void): () => void {
  return watchDirectory(join(fixturesDir, 'templates'), reload);
}

/** Calls `reload` (debounced) whenever something directly in the fixtures folder changes (apps.json). */
export function watchAppsFile(fixturesDir: string, reload: () => void): () => void {
  return watchDirectory(fixturesDir, reload);
}
