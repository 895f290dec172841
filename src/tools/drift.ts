/**
 * The differences between a fixture set and a live account, each in words, and whether it is
 * "breaking": the fixtures would let a send pass that the live account refuses (a template
 * sendable here but missing, unapproved or under another id live; a variable the live account
 * requires and the fixtures do not; a variable declared here but unknown live, which a send
 * may then carry; a type change), or delivers on fewer channel types than the live account.
 */
import {
  canonicalJson,
  cmp,
  type AccountSnapshot,
  type ChannelSnapshot,
  type TemplateSnapshot,
} from './fixture-set.js';

export type DifferenceKind =
  | 'template-missing-live'
  | 'template-missing-fixtures'
  | 'template-id'
  | 'template-status'
  | 'template-name'
  | 'template-category'
  | 'template-channels'
  | 'variable-added'
  | 'variable-removed'
  | 'variable-type'
  | 'variable-required'
  | 'variable-name'
  | 'content'
  | 'channels-file-missing'
  | 'channel-missing-live'
  | 'channel-missing-fixtures'
  | 'channel-field';

export interface Difference {
  kind: DifferenceKind;
  /** True when the fixtures let a send pass that the live account refuses. */
  breaking: boolean;
  /** Template key, or channel key for channel differences. */
  template?: string;
  channel?: string;
  variable?: string;
  field?: string;
  fixtures?: unknown;
  live?: unknown;
  /** The fixture file concerned, when there is one. */
  file?: string;
  message: string;
}

const q = (value: unknown) => (typeof value === 'string' ? `"${value}"` : canonicalJson(value));
const MAX_CONTENT_PATHS = 5;
const WITHOUT_IT = ' (a send without it passes here and is refused live)';

/** Paths where two JSON values differ, leaves first found; at most `max`. */
function differingPaths(a: unknown, b: unknown, path: string, out: string[], max: number): void {
  if (out.length >= max) return;
  const isObj = (v: unknown) => v !== null && typeof v === 'object';
  if (isObj(a) && isObj(b) && Array.isArray(a) === Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a as object), ...Object.keys(b as object)])].sort(cmp);
    for (const k of keys) {
      differingPaths(
        (a as Record<string, unknown>)[k],
        (b as Record<string, unknown>)[k],
        path ? `${path}.${k}` : k,
        out,
        max,
      );
    }
    return;
  }
  if (canonicalJson(a) !== canonicalJson(b)) out.push(path);
}

const at = (value: unknown, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>(
      (v, k) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined),
      value,
    );
const show = (value: unknown) => (value === undefined ? '(absent)' : q(value));

/** A fixture template beside its live twin, and what every difference between them carries. */
interface TemplatePair {
  fx: TemplateSnapshot;
  live: TemplateSnapshot;
  out: Difference[];
  base: { template: string; file?: string };
  /** How the template is named in each message. */
  where: string;
  /** An approved fixture: a difference can break a send. */
  sendable: boolean;
}

function compareTemplate(fx: TemplateSnapshot, live: TemplateSnapshot, out: Difference[]): void {
  const pair: TemplatePair = {
    fx,
    live,
    out,
    base: { template: fx.key, ...(fx.file ? { file: fx.file } : {}) },
    where: `template "${fx.key}"`,
    sendable: fx.status === 'approved',
  };
  compareIdentity(pair);
  compareTemplateChannels(pair);
  const names = [...new Set([...Object.keys(fx.variables), ...Object.keys(live.variables)])].sort(cmp);
  for (const name of names) compareVariable(pair, name);
  compareContent(pair);
}

/** The id, the status, the name and the category. */
function compareIdentity(pair: TemplatePair): void {
  const { fx, live, out, base, where, sendable } = pair;
  if (fx.id !== live.id) {
    out.push({
      ...base,
      kind: 'template-id',
      breaking: sendable && fx.explicitId,
      fixtures: fx.id,
      live: live.id,
      message:
        `${where}: id is ${live.id} on the live account, ${fx.id} in the fixtures` +
        (fx.explicitId
          ? ' (a send by id passes here and is not found live)'
          : ' (derived from the key: sends by id differ)'),
    });
  }
  if (fx.status !== live.status) {
    const breaking = sendable && live.status !== 'approved';
    out.push({
      ...base,
      kind: 'template-status',
      breaking,
      field: 'status',
      fixtures: fx.status,
      live: live.status,
      message:
        `${where}: status is "${live.status}" on the live account, "${fx.status}" in the fixtures` +
        (breaking ? ' (sends pass here and are refused live)' : ''),
    });
  }
  for (const [field, kind] of [
    ['name', 'template-name'],
    ['category', 'template-category'],
  ] as const) {
    if (fx[field] !== live[field]) {
      out.push({
        ...base,
        kind,
        breaking: false,
        field,
        fixtures: fx[field],
        live: live[field],
        message: `${where}: ${field} is ${show(live[field])} on the live account, ${show(fx[field])} in the fixtures`,
      });
    }
  }
}

/** The channel types it delivers on, or else the channels it is linked to. */
function compareTemplateChannels(pair: TemplatePair): void {
  const { fx, live, out, base, where, sendable } = pair;
  const sameIds =
    fx.channelIds.length === 0 ||
    live.channelIds.length === 0 ||
    canonicalJson([...fx.channelIds].sort(cmp)) === canonicalJson([...live.channelIds].sort(cmp));
  if (canonicalJson([...fx.channels].sort(cmp)) !== canonicalJson([...live.channels].sort(cmp))) {
    // A type delivered live and not here: the emulator sends less than the account does.
    const missing = live.channels.filter((type) => !fx.channels.includes(type));
    const breaking = sendable && missing.length > 0;
    out.push({
      ...base,
      kind: 'template-channels',
      breaking,
      field: 'channels',
      fixtures: fx.channels,
      live: live.channels,
      message:
        `${where}: delivers through ${q(live.channels)} on the live account, ${q(fx.channels)} in the fixtures` +
        (breaking ? ` (sends here skip ${missing.join(', ')}, which the live account delivers on)` : ''),
    });
  } else if (!sameIds) {
    out.push({
      ...base,
      kind: 'template-channels',
      breaking: false,
      field: 'channelIds',
      fixtures: fx.channelIds,
      live: live.channelIds,
      message:
        `${where}: is linked to channels ${q(live.channelIds)} on the live account, ` +
        `${q(fx.channelIds)} in the fixtures`,
    });
  }
}

/** One variable, declared in either or both. */
function compareVariable(pair: TemplatePair, name: string): void {
  const { fx, live, out, base, where, sendable } = pair;
  const f = fx.variables[name];
  const l = live.variables[name];
  const vbase = { ...base, variable: name };
  if (!f && l) {
    out.push({
      ...vbase,
      kind: 'variable-added',
      breaking: sendable && l.required,
      live: l,
      message:
        `${where}: variable "${name}" (${l.type}, ${l.required ? 'required' : 'optional'}) exists on the live ` +
        `account and is missing from the fixtures${sendable && l.required ? WITHOUT_IT : ''}`,
    });
    return;
  }
  if (f && !l) {
    out.push({
      ...vbase,
      kind: 'variable-removed',
      breaking: sendable,
      fixtures: f,
      message:
        `${where}: variable "${name}" (${f.type}) is declared in the fixtures and no longer exists on the live ` +
        `account${sendable ? ' (a send that gives it passes here and is refused live)' : ''}`,
    });
    return;
  }
  if (!f || !l) return;
  if (f.type !== l.type) {
    out.push({
      ...vbase,
      kind: 'variable-type',
      breaking: sendable,
      field: 'type',
      fixtures: f.type,
      live: l.type,
      message: `${where}: variable "${name}" is of type ${l.type} on the live account, ${f.type} in the fixtures`,
    });
  }
  if (f.required !== l.required) {
    const breaking = sendable && l.required;
    out.push({
      ...vbase,
      kind: 'variable-required',
      breaking,
      field: 'required',
      fixtures: f.required,
      live: l.required,
      message:
        `${where}: variable "${name}" is ${l.required ? 'required' : 'optional'} on the live account, ` +
        `${f.required ? 'required' : 'optional'} in the fixtures${breaking ? WITHOUT_IT : ''}`,
    });
  }
  if (f.name !== l.name) {
    out.push({
      ...vbase,
      kind: 'variable-name',
      breaking: false,
      field: 'name',
      fixtures: f.name,
      live: l.name,
      message:
        `${where}: variable "${name}" is labelled ${q(l.name)} on the live account, ` + `${q(f.name)} in the fixtures`,
    });
  }
}

/** Each channel type's content, by the paths where it differs. */
function compareContent(pair: TemplatePair): void {
  const { fx, live, out, base, where } = pair;
  const types = [...new Set([...Object.keys(fx.content), ...Object.keys(live.content)])].sort(cmp);
  for (const type of types) {
    const f = fx.content[type];
    const l = live.content[type];
    if (canonicalJson(f) === canonicalJson(l)) continue;
    let detail: string;
    if (f === undefined) detail = 'exists only on the live account';
    else if (l === undefined) detail = 'exists only in the fixtures';
    else {
      const paths: string[] = [];
      differingPaths(f, l, '', paths, MAX_CONTENT_PATHS + 1);
      detail = `differs: ${paths
        .slice(0, MAX_CONTENT_PATHS)
        .map((p) => `${p || '(whole)'}: live ${show(at(l, p))}, fixtures ${show(at(f, p))}`)
        .join('; ')}${paths.length > MAX_CONTENT_PATHS ? '; …' : ''}`;
    }
    out.push({
      ...base,
      kind: 'content',
      breaking: false,
      channel: type,
      fixtures: f,
      live: l,
      message: `${where}: content of channel ${type} ${detail}`,
    });
  }
}

const CHANNEL_FIELDS = ['name', 'key', 'type', 'templateType', 'enabled', 'categoryFilter', 'templateLabel'] as const;

function compareChannels(fixtures: ChannelSnapshot[] | null, live: ChannelSnapshot[], out: Difference[]): void {
  if (fixtures === null) {
    if (live.length) {
      out.push({
        kind: 'channels-file-missing',
        breaking: false,
        live: live.map((c) => c.key),
        message:
          `channels: the fixtures have no channels file; the live account has ${live.length} channel(s): ` +
          live.map((c) => c.key).join(', '),
      });
    }
    return;
  }
  const liveById = new Map(live.map((c) => [c.id, c]));
  const fixtureIds = new Set(fixtures.map((c) => c.id));
  for (const f of fixtures) {
    const l = liveById.get(f.id);
    if (!l) {
      out.push({
        kind: 'channel-missing-live',
        breaking: false,
        channel: f.key,
        fixtures: f,
        message: `channel "${f.key}" (${f.type}, ${f.id}) is in the fixtures and not on the live account`,
      });
      continue;
    }
    for (const field of CHANNEL_FIELDS) {
      if (f[field] !== l[field]) {
        out.push({
          kind: 'channel-field',
          breaking: false,
          channel: f.key,
          field,
          fixtures: f[field],
          live: l[field],
          message: `channel "${f.key}": ${field} is ${q(l[field])} on the live account, ${q(f[field])} in the fixtures`,
        });
      }
    }
  }
  for (const l of live) {
    if (fixtureIds.has(l.id)) continue;
    out.push({
      kind: 'channel-missing-fixtures',
      breaking: false,
      channel: l.key,
      live: l,
      message: `channel "${l.key}" (${l.type}, ${l.id}) is on the live account and not in the fixtures`,
    });
  }
}

/** Every difference, templates (by key) first, then channels. */
export function compareSnapshots(fixtures: AccountSnapshot, live: AccountSnapshot): Difference[] {
  const out: Difference[] = [];
  const liveByKey = new Map(live.templates.map((t) => [t.key, t]));
  const fixtureKeys = new Set(fixtures.templates.map((t) => t.key));
  const keys = [...new Set([...fixtureKeys, ...liveByKey.keys()])].sort(cmp);
  for (const key of keys) {
    const fx = fixtures.templates.find((t) => t.key === key);
    const l = liveByKey.get(key);
    if (fx && l) compareTemplate(fx, l, out);
    else if (fx) {
      const breaking = fx.status === 'approved';
      out.push({
        kind: 'template-missing-live',
        breaking,
        template: key,
        ...(fx.file ? { file: fx.file } : {}),
        fixtures: fx.status,
        message:
          `template "${key}" (${fx.status}) is in the fixtures and not on the live account` +
          (breaking ? ' (sends pass here and are not found live)' : ''),
      });
    } else if (l) {
      out.push({
        kind: 'template-missing-fixtures',
        breaking: false,
        template: key,
        live: l.status,
        message: `template "${key}" (${l.status}) is on the live account and not in the fixtures`,
      });
    }
  }
  compareChannels(fixtures.channels, live.channels ?? [], out);
  return out;
}
