/**
 * One comparable picture of an account's templates and channels ("snapshot"), built either
 * from a live account or from a fixtures folder, and the fixture files a snapshot is written
 * as: one file per template under templates/, channels in channels.json, sorted keys and
 * 2-space JSON so the same account always gives the same bytes.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadFixtures } from '../catalog/load-fixtures.js';
import type { Template } from '../schemas/records.js';
import { parseTemplateFile, toVariableArray } from '../schemas/template-file.js';
import { stableIdFromKey } from '../platform/random.js';
import type { LiveAccount } from './live/read-account.js';

export interface VariableSnapshot {
  type: string;
  name: string;
  required: boolean;
}

export interface TemplateSnapshot {
  id: string;
  /** The id was written in the fixture file (not derived from the key). */
  explicitId: boolean;
  key: string;
  name: string;
  status: Template['status'];
  category: string | null;
  /** Channel types a send delivers through, in order. */
  channels: string[];
  /** Ids of the linked channels ([] when the source does not say). */
  channelIds: string[];
  /** One row per linked channel; null when the source has no rows (content by type only). */
  rows: TemplateRowSnapshot[] | null;
  /**
   * Content by channel type as the source gives it: all of it when it has no rows; with rows,
   * that of the types no linked channel or row covers (set only when there are such types).
   */
  contentByType?: Record<string, unknown>;
  variables: Record<string, VariableSnapshot>;
  /** What a send renders per channel type. */
  content: Record<string, unknown>;
  /** The fixture file that holds it (fixtures side only). */
  file?: string;
}

export interface TemplateRowSnapshot {
  channelId: string;
  channelType: string;
  content: unknown;
}

export interface ChannelSnapshot {
  id: string;
  key: string;
  name: string;
  type: string;
  templateType: string;
  enabled: boolean;
  categoryFilter: boolean;
  templateLabel: boolean;
}

/** The fields of a channel that drift checks compare (never `config`: it holds credentials). */
const toChannelSnapshot = (c: ChannelSnapshot): ChannelSnapshot => ({
  id: c.id,
  key: c.key,
  name: c.name,
  type: c.type,
  templateType: c.templateType,
  enabled: c.enabled,
  categoryFilter: c.categoryFilter,
  templateLabel: c.templateLabel,
});
const byChannelKey = (a: ChannelSnapshot, b: ChannelSnapshot) => cmp(a.key, b.key) || cmp(a.id, b.id);

export interface AccountSnapshot {
  templates: TemplateSnapshot[];
  /** null: the fixtures have no channels file. */
  channels: ChannelSnapshot[] | null;
}

export const CHANNELS_FILE = 'channels.json';
export const TEMPLATES_DIR = 'templates';

// ---- from a live account ----

/**
 * Channel type → the content a send renders for it: the row of the first linked channel of
 * that type that has one (enabled channels first, then in link order), else `fallback[type]`.
 */
export function renderedContent(
  linked: { id: string; type: string; enabled: boolean }[],
  rows: TemplateRowSnapshot[],
  fallback: Record<string, unknown>,
  types: string[],
): Record<string, unknown> {
  const ordered = [...linked].sort((a, b) => Number(b.enabled) - Number(a.enabled));
  const content: Record<string, unknown> = {};
  for (const type of types) {
    const row = ordered
      .filter((ch) => ch.type === type)
      .map((ch) => rows.find((r) => r.channelId === ch.id))
      .find((r) => r !== undefined);
    const fromRows = row ?? (linked.length === 0 ? rows.find((r) => r.channelType === type) : undefined);
    if (fromRows) content[type] = fromRows.content;
    else if (fallback[type] !== undefined) content[type] = fallback[type];
  }
  return content;
}

/** The snapshot of a live account, plus warnings about what a fixture cannot hold. */
export function snapshotFromLive(account: LiveAccount): { snapshot: AccountSnapshot; warnings: string[] } {
  const warnings: string[] = [];
  const channelsById = new Map(account.channels.map((c) => [c.id, c]));
  const templates = account.templates.map((t): TemplateSnapshot => {
    const key = (t.templateId ?? t.key)!;
    const channelIds = [...new Set(t.channelIds ?? [])].filter((id) => {
      if (channelsById.has(id)) return true;
      warnings.push(`template "${key}": linked channel ${id} is not among the account's channels; left out`);
      return false;
    });
    const linked = channelIds.map((id) => channelsById.get(id)!);
    let rows: TemplateRowSnapshot[] | null = null;
    if (account.rows !== null) {
      rows = [];
      const all = account.rows.get(t.id) ?? [];
      // In link order, then (for a template linked to nothing) by channel id.
      const ordered = channelIds.length
        ? channelIds.flatMap((id) => all.filter((r) => r.channelId === id).slice(0, 1))
        : [...all].sort((a, b) => cmp(a.channelId, b.channelId));
      for (const row of all) {
        if (!ordered.includes(row)) {
          warnings.push(
            `template "${key}": the row of channel ${row.channelId} is left out ` +
              '(the template is not linked to that channel, or it has two rows for it)',
          );
        }
      }
      for (const row of ordered) {
        const channel = channelsById.get(row.channelId);
        if (!channel) {
          warnings.push(
            `template "${key}": the row of channel ${row.channelId} names no channel of the account; left out`,
          );
          continue;
        }
        rows.push({ channelId: row.channelId, channelType: channel.type, content: row.content });
      }
    }
    // A template linked to no channel but with content by type (an emulator's shared fixture
    // template, seen by an app without channels): kept in that form.
    if (rows !== null && rows.length === 0 && channelIds.length === 0 && Object.keys(t.content ?? {}).length) {
      rows = null;
    }
    const types: string[] = [];
    for (const type of [...linked.map((c) => c.type), ...(rows ?? []).map((r) => r.channelType)]) {
      if (!types.includes(type)) types.push(type);
    }
    // Every type the template is delivered on: its linked channels' and rows' types, then the
    // ones its own `channels` adds (a type the account has no channel of still delivers), whose
    // content comes from the template object.
    const extraTypes = rows === null ? [] : (t.channels ?? []).filter((type) => !types.includes(type));
    types.push(...extraTypes);
    const fallback =
      rows === null
        ? (t.content ?? {})
        : Object.fromEntries(extraTypes.flatMap((type) => (t.content?.[type] ? [[type, t.content[type]]] : [])));
    if (types.length === 0) types.push(...(rows === null && t.channels?.length ? t.channels : Object.keys(fallback)));
    const variables = Object.fromEntries(
      toVariableArray(t.variableSchema ?? {}).map((v) => [v.key, { type: v.type, name: v.name, required: v.required }]),
    );
    return {
      id: t.id,
      explicitId: true,
      key,
      name: t.name,
      status: t.status,
      category: t.category ?? null,
      channels: types,
      channelIds,
      rows,
      variables,
      content: renderedContent(linked, rows ?? [], fallback, types),
      ...(rows === null || extraTypes.length ? { contentByType: fallback } : {}),
    };
  });
  templates.sort((a, b) => cmp(a.key, b.key));
  const channels = account.channels.map(toChannelSnapshot).sort(byChannelKey);
  return { snapshot: { templates, channels }, warnings };
}

// ---- from a fixtures folder ----

/**
 * The fixtures as the emulator loads them for `appId` (shared templates and channels, and the
 * app's own ones winning over shared ones with the same key). Throws ConfigError when they do
 * not load.
 */
export function snapshotFromFixtures(fixturesDir: string, appId: string): AccountSnapshot {
  const loaded = loadFixtures(fixturesDir, '1970-01-01T00:00:00.000Z');
  const byKey = new Map<string, Template>();
  for (const t of loaded.templates) {
    if (t.appId !== null && t.appId !== appId) continue;
    const current = byKey.get(t.key);
    if (!current || (current.appId === null && t.appId !== null)) byKey.set(t.key, t);
  }
  const channels = loaded.channels.filter((c) => c.appId === null || c.appId === appId);
  const channelsById = new Map(channels.map((c) => [c.id, c]));
  const files = fileOfTemplate(fixturesDir);
  const templates = [...byKey.values()]
    .map((t): TemplateSnapshot => {
      // Without channelIds a fixture template is linked to every channel of its types.
      const linked = t.channelIds
        ? t.channelIds.flatMap((id) => channelsById.get(id) ?? [])
        : channels.filter((c) => t.channels.includes(c.type));
      const rows = t.rows?.map((r) => ({ channelId: r.channelId, channelType: r.channelType, content: r.content }));
      return {
        id: t.id,
        explicitId: t.id !== stableIdFromKey(t.key),
        key: t.key,
        name: t.name,
        status: t.status,
        category: t.category,
        channels: t.channels,
        channelIds: t.channelIds ?? [],
        rows: rows ?? null,
        variables: Object.fromEntries(
          t.variableSchema.map((v) => [v.key, { type: v.type, name: v.name, required: v.required }]),
        ),
        content: renderedContent(linked, rows ?? [], t.content, t.channels),
        file: files.get(`${t.appId ?? ''}/${t.key}`),
      };
    })
    .sort((a, b) => cmp(a.key, b.key));
  const hasChannelsFile = existsSync(join(fixturesDir, CHANNELS_FILE));
  return {
    templates,
    channels: hasChannelsFile ? channels.map(toChannelSnapshot).sort(byChannelKey) : null,
  };
}

/** `appId/key` → the file that defines it (files already validated by loadFixtures). */
function fileOfTemplate(fixturesDir: string): Map<string, string> {
  const dir = join(fixturesDir, TEMPLATES_DIR);
  const files = new Map<string, string>();
  if (!existsSync(dir)) return files;
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const file = join(dir, name);
    const parsed = parseTemplateFile(JSON.parse(readFileSync(file, 'utf8')));
    if (!parsed.success) continue;
    for (const entry of Array.isArray(parsed.data) ? parsed.data : [parsed.data]) {
      files.set(`${entry.appId ?? ''}/${entry.key}`, file);
    }
  }
  return files;
}

// ---- to fixture files ----

/**
 * The fixture file of one template, in the form the emulator loads: linked channel ids and one
 * row per channel when the source has rows (plus `channels` and `content` for the types they do
 * not cover); content by channel type when it has none.
 */
export function templateFileOf(t: TemplateSnapshot): Record<string, unknown> {
  const links =
    t.rows !== null
      ? {
          ...(t.channelIds.length ? { channelIds: t.channelIds } : {}),
          rows: t.rows.map((r) => ({ channelId: r.channelId, channelType: r.channelType, content: r.content })),
          // Types beyond the links and rows: listed, with their content, so the emulator delivers on them too.
          ...(t.contentByType ? { channels: t.channels, content: t.contentByType } : {}),
        }
      : { ...(t.channels.length ? { channels: t.channels } : {}), content: t.contentByType ?? t.content };
  return {
    id: t.id,
    key: t.key,
    name: t.name,
    status: t.status,
    ...(t.category !== null ? { category: t.category } : {}),
    variableSchema: t.variables,
    ...links,
  };
}

/**
 * Relative path → file text for a snapshot. File names are the template keys; two keys that
 * differ only in case (one file on case-insensitive disks) get the id appended.
 */
export function fixtureFilesOf(snapshot: AccountSnapshot): Map<string, string> {
  const files = new Map<string, string>();
  const lower = new Map<string, number>();
  for (const t of snapshot.templates) lower.set(t.key.toLowerCase(), (lower.get(t.key.toLowerCase()) ?? 0) + 1);
  for (const t of snapshot.templates) {
    const name = lower.get(t.key.toLowerCase())! > 1 ? `${t.key}.${t.id}` : t.key;
    files.set(`${TEMPLATES_DIR}/${name}.json`, canonicalJson(templateFileOf(t), 2) + '\n');
  }
  files.set(CHANNELS_FILE, canonicalJson(snapshot.channels ?? [], 2) + '\n');
  return files;
}

// ---- helpers ----

export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort(cmp)
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** JSON with every object's keys sorted (code-point order), so equal data gives equal text. */
export function canonicalJson(value: unknown, indent?: number): string {
  return JSON.stringify(sortKeys(value), null, indent);
}
