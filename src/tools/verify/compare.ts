/**
 * One probe's two answers compared, for `verify`: the status, the media type, the error code,
 * the shape of the body (field names and JSON kinds, recursively) and, for templates, the
 * values of their own fields, which the emulator took from the live account and must answer
 * unchanged. Every other value (ids, timestamps, counts) differs between any two services and
 * is compared by kind only. Plain functions: the answers come in as text.
 */
import { canonicalJson } from '../fixture-set.js';
import { kindOfJson, shapeDifferences, shapeOf } from './shape.js';

/** An answer as it came over HTTP. */
export interface ProbeAnswer {
  status: number;
  contentType: string | null;
  text: string;
}

/** The fields of a template the emulator answers as the live account gave them. */
export const TEMPLATE_OWN_FIELDS = [
  'id',
  'templateId',
  'key',
  'name',
  'status',
  'category',
  'channelIds',
  'variableSchema',
] as const;

/**
 * Fields the emulator's templates have and the service's documented template object does not
 * (the emulator's own extensions, docs/fidelity.md): not compared, so a run against the real
 * service does not report them every night.
 */
export const TEMPLATE_EXTENSION_FIELDS = ['key', 'channels', 'content', 'source'] as const;

/** Whether `path` is an extension field of the template(s) at `root` (`template.content.push`, `templates[].key`). */
function isTemplateExtension(path: string, root: string): boolean {
  const rest = path.startsWith(`${root}[].`)
    ? path.slice(root.length + 3)
    : path.startsWith(`${root}.`)
      ? path.slice(root.length + 1)
      : null;
  const field = rest?.split(/[.[]/)[0];
  return field !== undefined && (TEMPLATE_EXTENSION_FIELDS as readonly string[]).includes(field);
}

/** A list answer this long may be one page of a longer list: its items are not matched one to one. */
const PAGE_SIZE = 100;

type Parsed = { json: true; value: unknown } | { json: false };

function parse(text: string): Parsed {
  try {
    return { json: true, value: JSON.parse(text) };
  } catch {
    return { json: false };
  }
}

const mediaType = (header: string | null) => (header ?? '').split(';')[0]!.trim().toLowerCase() || '(none)';

/** `error.code` of an error envelope, or null. */
export function errorCodeOf(value: unknown): string | null {
  if (kindOfJson(value) !== 'object') return null;
  const error = (value as { error?: unknown }).error;
  if (kindOfJson(error) !== 'object') return null;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : null;
}

const shown = (value: unknown) => {
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
};

/** Differences between the own fields of two templates found at `path`. */
function templateFieldDifferences(live: unknown, emulator: unknown, path: string): string[] {
  if (kindOfJson(live) !== 'object' || kindOfJson(emulator) !== 'object') return [];
  const mine = live as Record<string, unknown>;
  const theirs = emulator as Record<string, unknown>;
  return TEMPLATE_OWN_FIELDS.flatMap((field) => {
    const [l, e] = [mine[field], theirs[field]];
    // A field one side lacks, or of another kind, is a difference of shape, named there.
    if (l === undefined || e === undefined || kindOfJson(l) !== kindOfJson(e)) return [];
    return canonicalJson(l) === canonicalJson(e) ? [] : [`${path}.${field}: ${shown(l)} live, ${shown(e)} emulator`];
  });
}

const idOf = (item: unknown) =>
  kindOfJson(item) === 'object' && typeof (item as { id?: unknown }).id === 'string'
    ? (item as { id: string }).id
    : null;

/**
 * Differences between the templates of two success answers: one template each, or lists
 * matched by id (an id on one side only is named, unless a list may be one page of more).
 */
export function templateValueDifferences(live: unknown, emulator: unknown, root: string): string[] {
  if (!Array.isArray(live) || !Array.isArray(emulator)) return templateFieldDifferences(live, emulator, root);
  const byId = new Map(emulator.flatMap((item) => (idOf(item) === null ? [] : [[idOf(item)!, item] as const])));
  const seen = new Set<string>();
  // Either list may be one page of a longer one: which ids the other lacks then says nothing.
  const whole = live.length < PAGE_SIZE && emulator.length < PAGE_SIZE;
  const differences: string[] = [];
  for (const item of live) {
    const id = idOf(item);
    if (id === null) continue;
    seen.add(id);
    if (byId.has(id)) differences.push(...templateFieldDifferences(item, byId.get(id), `${root}[id=${id}]`));
    else if (whole) differences.push(`${root}[id=${id}]: only live`);
  }
  if (whole) {
    for (const id of byId.keys()) if (!seen.has(id)) differences.push(`${root}[id=${id}]: only emulator`);
  }
  return differences;
}

export interface CompareOptions {
  /** The name of a success answer's root in differences. */
  root: string;
  /** Compare the templates' own values too. */
  templateValues?: boolean;
}

/** Every difference between the live service's and the emulator's answer to one probe. */
export function compareAnswers(live: ProbeAnswer, emulator: ProbeAnswer, options: CompareOptions): string[] {
  const differences: string[] = [];
  if (live.status !== emulator.status) differences.push(`status ${live.status} live, ${emulator.status} emulator`);
  const [liveType, emulatorType] = [mediaType(live.contentType), mediaType(emulator.contentType)];
  if (liveType !== emulatorType) differences.push(`content-type: ${liveType} live, ${emulatorType} emulator`);
  const [l, e] = [parse(live.text), parse(emulator.text)];
  if (!l.json || !e.json) {
    if (l.json !== e.json)
      differences.push(`body: ${l.json ? 'JSON' : 'not JSON'} live, ${e.json ? 'JSON' : 'not JSON'} emulator`);
    return differences;
  }
  const [liveCode, emulatorCode] = [errorCodeOf(l.value), errorCodeOf(e.value)];
  if (liveCode !== emulatorCode) {
    differences.push(`error.code: ${liveCode ?? '(none)'} live, ${emulatorCode ?? '(none)'} emulator`);
  }
  // Answers of different statuses are different answers: their shapes say nothing more.
  if (live.status !== emulator.status) return differences;
  const success = live.status >= 200 && live.status < 300;
  const root = success ? options.root : '';
  const ignored = success && options.templateValues ? (path: string) => isTemplateExtension(path, root) : undefined;
  differences.push(...shapeDifferences(shapeOf(l.value), shapeOf(e.value), root, ignored));
  if (success && options.templateValues) differences.push(...templateValueDifferences(l.value, e.value, root));
  return differences;
}
