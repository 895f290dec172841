/**
 * Reads fixtures/ (templates/*.json, channels.json and apps.json), validates every file in
 * one pass and reports every problem with the file and field. Watches templates/ and
 * channels.json and reloads both on change, keeping the last good set when an edit is bad.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { ConfigError } from '../domain/errors.js';
import type { FixtureChannel } from '../domain/ports.js';
import { depthExceeds, TOO_DEEP_TO_LOAD } from '../domain/json-depth.js';
import { slugify } from '../domain/slug.js';
import type { Template, TemplateRow } from '../schemas/records.js';
import { ChannelsFileSchema } from '../schemas/channel-file.js';
import { parseTemplateFile, toVariableArray, type TemplateFileEntry } from '../schemas/template-file.js';
import { stableId, stableIdFromKey } from '../platform/random.js';
import { AppsFileSchema, type AppConfig } from './apps.js';
import { watchDirectory, type WatchOptions } from '../platform/watch-dir.js';
import { issueProblems } from '../schemas/issues.js';

/**
 * `file: field "1.variableSchema.0.type" (variable "total"): must be one of …` for each issue.
 * With the parsed `input`, a problem inside a variableSchema entry names the variable.
 */
export function formatZodIssues(file: string, error: z.ZodError, input?: unknown): string[] {
  return issueProblems(error, file, (path) => {
    const variable = variableAt(input, path);
    return `field "${path.map(String).join('.') || '(root)'}"${variable ? ` (variable "${variable}")` : ''}`;
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
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    problems.push(`${file}: not valid JSON: ${(error as Error).message}`);
    return undefined;
  }
  return tooDeep(file, json, problems) ? undefined : json;
}

/**
 * Fixtures are rendered and stored like request bodies, so they get the same nesting limit
 * (domain/json-depth.ts): deeper content loaded, then overflowed the stack at every send.
 */
function tooDeep(where: string, json: unknown, problems: string[]): boolean {
  // Each template of a file (or of the option) on its own: a list around them is not content.
  if (!(Array.isArray(json) ? json.some((entry) => depthExceeds(entry)) : depthExceeds(json))) return false;
  problems.push(`${where}: ${TOO_DEEP_TO_LOAD}`);
  return true;
}

/** Channel types in first-seen order. */
const typesOf = (list: { type?: string; channelType?: string }[]) => [
  ...new Set(list.map((x) => (x.type ?? x.channelType) as string)),
];

/**
 * A template file entry as a Template. `channels` (the channel types) defaults to the types
 * of `channelIds`, then of `rows`, then the keys of `content`. `channels` maps channel ids
 * to the fixture channels the entry may use (checked by linkProblems).
 */
export function toTemplate(
  entry: TemplateFileEntry,
  nowIso: string,
  source: Template['source'] = 'fixture',
  channels: ReadonlyMap<string, FixtureChannel> = new Map(),
): Template {
  const variableSchema = toVariableArray(entry.variableSchema);
  const rows: TemplateRow[] | undefined = entry.rows?.map((r) => ({
    channelId: r.channelId,
    channelType: channels.get(r.channelId)?.type ?? r.channelType ?? 'in_app',
    content: r.content,
  }));
  const linked = (entry.channelIds ?? []).flatMap((id) => channels.get(id) ?? []);
  const defaultTypes = [typesOf(linked), typesOf(rows ?? []), Object.keys(entry.content)].find((t) => t.length > 0);
  const template: Template = {
    id: entry.id ?? stableIdFromKey(entry.key),
    key: entry.key,
    name: entry.name ?? entry.key,
    status: entry.status,
    channels: entry.channels ?? defaultTypes ?? ['in_app'],
    variableSchema,
    content: entry.content,
    category: entry.category ?? null,
    appId: entry.appId ?? null,
    source,
    createdAt: nowIso,
    updatedAt: nowIso,
  };
  if (entry.channelIds) template.channelIds = [...new Set(entry.channelIds)];
  if (rows) template.rows = rows;
  return template;
}

/** A channels.json entry as a fixture channel (id and key derived when absent). */
function toFixtureChannel(entry: z.infer<typeof ChannelsFileSchema>[number], nowIso: string): FixtureChannel {
  const appId = entry.appId ?? null;
  const key = entry.key ?? slugify(entry.name);
  return {
    id: entry.id ?? stableId(`channel:${appId ?? ''}:${key}`),
    appId,
    name: entry.name,
    key,
    type: entry.type,
    templateType: entry.templateType,
    enabled: entry.enabled,
    categoryFilter: entry.categoryFilter,
    templateLabel: entry.templateLabel,
    config: entry.config,
    createdAt: entry.createdAt ? new Date(entry.createdAt).toISOString() : nowIso,
    updatedAt: entry.updatedAt ? new Date(entry.updatedAt).toISOString() : nowIso,
  };
}

/** `fixtures/channels.json` when present; [] otherwise. Problems are added to `problems`. */
function readChannelsFile(fixturesDir: string, nowIso: string, problems: string[]): FixtureChannel[] {
  const file = join(fixturesDir, 'channels.json');
  if (!existsSync(file)) return [];
  const json = readJson(file, problems);
  if (json === undefined) return [];
  return parseChannels(file, json, nowIso, problems);
}

function parseChannels(file: string, json: unknown, nowIso: string, problems: string[]): FixtureChannel[] {
  const parsed = ChannelsFileSchema.safeParse(json);
  if (!parsed.success) {
    problems.push(...formatZodIssues(file, parsed.error));
    return [];
  }
  const channels = parsed.data.map((entry) => toFixtureChannel(entry, nowIso));
  // Ids are unique in the file; keys among what one app sees (shared channels plus its own).
  const ids = new Set<string>();
  const sharedKeys = new Set(channels.filter((ch) => ch.appId === null).map((ch) => ch.key));
  const keys = new Set<string>();
  channels.forEach((ch, i) => {
    if (!ch.key)
      problems.push(`${file}: field "${i}.name": must contain a letter or digit (the key is derived from it)`);
    if (ids.has(ch.id)) problems.push(`${file}: field "${i}.id": id "${ch.id}" is defined twice`);
    ids.add(ch.id);
    const scoped = `${ch.appId ?? '*'}/${ch.key}`;
    if (keys.has(scoped) || (ch.appId !== null && sharedKeys.has(ch.key)))
      problems.push(`${file}: field "${i}.key": key "${ch.key}" is defined twice for ${ch.appId ?? 'every app'}`);
    keys.add(scoped);
  });
  return channels;
}

/**
 * Problems of an entry's `channelIds` and `rows` against the fixture channels: each id must
 * be a channel the template's scope sees (a shared template: shared channels only), a row's
 * channel must be linked (when `channelIds` is given), its type must match, one row per channel.
 */
function linkProblems(
  file: string,
  prefix: string,
  entry: TemplateFileEntry,
  channels: ReadonlyMap<string, FixtureChannel>,
): string[] {
  const problems: string[] = [];
  const visible = (id: string) => {
    const ch = channels.get(id);
    return ch && (ch.appId === null || ch.appId === (entry.appId ?? null)) ? ch : undefined;
  };
  const scope = entry.appId ? `shared or of app "${entry.appId}"` : 'shared (no appId), as the template is';
  entry.channelIds?.forEach((id, i) => {
    if (!visible(id))
      problems.push(`${file}: field "${prefix}channelIds.${i}": no channel "${id}" in channels.json (${scope})`);
  });
  const seen = new Set<string>();
  entry.rows?.forEach((row, i) => {
    const at = `${file}: field "${prefix}rows.${i}`;
    const ch = visible(row.channelId);
    if (!ch) problems.push(`${at}.channelId": no channel "${row.channelId}" in channels.json (${scope})`);
    else if (entry.channelIds && !entry.channelIds.includes(row.channelId))
      problems.push(`${at}.channelId": channel "${row.channelId}" is not one of this template's channelIds`);
    else if (row.channelType && row.channelType !== ch.type)
      problems.push(`${at}.channelType": is "${row.channelType}" but channel "${row.channelId}" is "${ch.type}"`);
    if (seen.has(row.channelId)) problems.push(`${at}.channelId": a second row for channel "${row.channelId}"`);
    seen.add(row.channelId);
    const id = entry.id ?? stableIdFromKey(entry.key);
    if (row.templateId !== undefined && row.templateId !== id && row.templateId !== entry.key)
      problems.push(`${at}.templateId": "${row.templateId}" is not this template's id or key`);
  });
  return problems;
}

export interface Fixtures {
  templates: Template[];
  channels: FixtureChannel[];
}

/**
 * Fixtures given inline (createApp({ templates, channels })): the same checks as the files,
 * with problems named `options.templates` / `options.channels`.
 */
export function parseInlineFixtures(rawTemplates: unknown[], rawChannels: unknown[], nowIso: string): Fixtures {
  const problems: string[] = [];
  if (tooDeep('options.templates', rawTemplates, problems) || tooDeep('options.channels', rawChannels, problems))
    throw new ConfigError(problems);
  const channels = parseChannels('options.channels', rawChannels, nowIso, problems);
  const channelsById = new Map(channels.map((ch) => [ch.id, ch]));
  const templates: Template[] = [];
  const parsed = parseTemplateFile(rawTemplates);
  if (!parsed.success) problems.push(...formatZodIssues('options.templates', parsed.error, rawTemplates));
  else
    (parsed.data as TemplateFileEntry[]).forEach((entry, i) => {
      problems.push(...linkProblems('options.templates', `${i}.`, entry, channelsById));
      templates.push(toTemplate(entry, nowIso, 'fixture', channelsById));
    });
  if (problems.length) throw new ConfigError(problems);
  return { templates, channels };
}

/** Every template under `dir/templates`; throws ConfigError listing every problem. */
export function loadTemplates(fixturesDir: string, nowIso: string): Template[] {
  return loadFixtures(fixturesDir, nowIso).templates;
}

/** Templates and channels of a fixtures folder, checked together; throws ConfigError listing every problem. */
export function loadFixtures(fixturesDir: string, nowIso: string): Fixtures {
  const problems: string[] = [];
  const channels = readChannelsFile(fixturesDir, nowIso, problems);
  const channelsById = new Map(channels.map((ch) => [ch.id, ch]));
  const dir = join(fixturesDir, 'templates');
  const templates: Template[] = [];
  const fileOf: string[] = [];
  if (!existsSync(dir)) {
    if (problems.length) throw new ConfigError(problems);
    return { templates, channels };
  }
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
    entries.forEach((entry, i) => {
      problems.push(...linkProblems(file, Array.isArray(parsed.data) ? `${i}.` : '', entry, channelsById));
      templates.push(toTemplate(entry, nowIso, 'fixture', channelsById));
      fileOf.push(file);
    });
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
  return { templates, channels };
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

/** How long after one watch fires the other may still ask for the same reload. */
const COALESCE_MS = 50;

/**
 * Watches the fixtures folder with one watcher on it and one on templates/: `reloadFixtures`
 * (debounced) after a change under templates/ or in the folder (channels.json), and
 * `reloadApps`, when given, after a change in the folder (apps.json). A templates/ made after
 * the start, or deleted and made again, is found by its own watch (watchDirectory).
 */
export function watchFixtures(
  fixturesDir: string,
  reloadFixtures: () => void,
  reloadApps: (() => void) | undefined,
  options: WatchOptions = {},
): () => void {
  // One change can reach both watches (`pull` renames a new templates/ into the folder): the
  // reloads they ask for within COALESCE_MS are done, and reported, once.
  let timer: NodeJS.Timeout | undefined;
  let appsToo = false;
  const reload = (folder: boolean) => {
    appsToo ||= folder;
    clearTimeout(timer);
    timer = setTimeout(() => {
      const apps = appsToo;
      appsToo = false;
      reloadFixtures();
      // Which file of the folder changed is not told reliably on every platform: apps.json is cheap to read.
      if (apps) reloadApps?.();
    }, COALESCE_MS);
    timer.unref();
  };
  const stopTemplates = watchDirectory(join(fixturesDir, 'templates'), () => reload(false), options);
  const stopFolder = watchDirectory(fixturesDir, () => reload(true), options);
  return () => {
    clearTimeout(timer);
    stopTemplates();
    stopFolder();
  };
}
