/**
 * Deliveries: turns a (template, user, variables) triple into a Delivery record, asking the
 * fault policy whether it fails (one-call sends and campaign sends alike), and the delivery
 * run: the deliveries of one batch send, which share everything but the user, kept as one
 * record with per-user columns. Delivery objects are built only when someone reads them, so
 * a 10,000-target send stores a few objects instead of 10,000 (bench/).
 */
import type { Delivery, Template } from '../schemas/records.js';
import type { DeliveryFaultPolicy, Ids } from './ports.js';
import { compileContent } from './variables.js';

export interface DeliveryContext {
  appId: string;
  template: Template;
  mode: Delivery['mode'];
  title: string | null;
  tag: string | null;
  pushData: Record<string, unknown> | null;
  notificationId: string | null;
  campaignId: string | null;
  createdAt: string;
  ids: Ids;
  faults: DeliveryFaultPolicy;
  /** The template's channel types this app delivers through (see deliveredChannels). */
  channels: string[];
  /** Content per channel type from template-channel rows (template-channels.ts), rendered instead of `content`. */
  rowContent: ReadonlyMap<string, Record<string, unknown>>;
  /** Compiles (and caches) the template's content: one per service, see createContentCompiler. */
  compile: ContentCompiler;
}

type Variables = Record<string, unknown>;
type Render = (variables: Variables) => unknown;
type ContentCompiler = (template: Template, rowContent: ReadonlyMap<string, Record<string, unknown>>) => Render;

/**
 * Compiled content for one service, cached per content object: a template's `content` and
 * each row's content are scanned once, not per send. Rows are never edited in place (a PUT
 * stores a new row with a new content object), so a changed row is compiled afresh for the
 * sends after it, and deliveries already made keep what they rendered.
 */
export function createContentCompiler(): ContentCompiler {
  const compiled = new WeakMap<object, Render>();
  const cached = (content: unknown): Render => {
    if (typeof content !== 'object' || content === null) return compileContent(content);
    let render = compiled.get(content);
    if (!render) compiled.set(content, (render = compileContent(content)));
    return render;
  };
  return (template, rowContent) => {
    const base = cached(template.content);
    if (rowContent.size === 0) return base;
    const rows = [...rowContent].map(([type, content]) => [type, cached(content)] as const);
    return (variables) => {
      const out = base(variables) as Variables; // a fresh object per call
      for (const [type, render] of rows) out[type] = render(variables);
      return out;
    };
  };
}

const NO_CHANNEL_REASON = 'every channel of the template is disabled for this app';
const TEMPLATE_WITHOUT_CHANNELS = 'the template has no channels: give it channelIds (or content per channel type)';

/**
 * The template's channel types minus those the app has switched off (real docs: "notifications
 * skip disabled channels"). A type the app has no channel record for stays, so fixture-only
 * setups deliver as declared. Returns the template's own array when nothing is skipped.
 */
export function deliveredChannels(
  template: Template,
  appChannels: readonly { type: string; enabled: boolean }[],
): string[] {
  const switchedOff = (type: string) => {
    const ofType = appChannels.filter((c) => c.type === type);
    return ofType.length > 0 && ofType.every((c) => !c.enabled);
  };
  const kept = template.channels.filter((type) => !switchedOff(type));
  return kept.length === template.channels.length ? template.channels : kept;
}

/** Renders once per distinct variables object, so a 10,000-target batch with shared variables renders once. */
function createRenderer(ctx: DeliveryContext): (variables: Variables) => Variables {
  const renderCache = new WeakMap<object, Variables>();
  const renderContent = ctx.compile(ctx.template, ctx.rowContent);
  return (variables) => {
    let rendered = renderCache.get(variables);
    if (!rendered) renderCache.set(variables, (rendered = renderContent(variables) as Variables));
    return rendered;
  };
}

/** Whether the delivery to `userId` fails: every channel switched off, or a failDelivery rule. */
function createFailureCheck(ctx: DeliveryContext): (userId: string) => FailureMark | null {
  const noChannel: FailureMark | null =
    ctx.channels.length > 0
      ? null
      : {
          reason: ctx.template.channels.length === 0 ? TEMPLATE_WITHOUT_CHANNELS : NO_CHANNEL_REASON,
          scenario: null,
        };
  const { appId, campaignId } = ctx;
  const templateKey = ctx.template.key;
  return (userId) => noChannel ?? ctx.faults({ appId, userId, templateKey, campaignId });
}

const sharedFieldsOf = (ctx: DeliveryContext): SharedDeliveryFields => ({
  appId: ctx.appId,
  notificationId: ctx.notificationId,
  campaignId: ctx.campaignId,
  templateId: ctx.template.id,
  templateKey: ctx.template.key,
  channels: ctx.channels,
  mode: ctx.mode,
  title: ctx.title,
  tag: ctx.tag,
  pushData: ctx.pushData,
  createdAt: ctx.createdAt,
});

const NO_FAILURES: ReadonlyMap<number, FailureMark> = new Map();

/**
 * The deliveries of one send as a run: ids reserved in one step, content rendered once per
 * distinct variables object, the fault policy asked once per target; no record per target.
 */
export function createDeliveryRun(
  ctx: DeliveryContext,
  userIds: readonly string[],
  variables: PerMember<Variables>,
): DeliveryRun {
  const render = createRenderer(ctx);
  const failureOf = createFailureCheck(ctx);
  let failures = NO_FAILURES;
  for (let i = 0; i < userIds.length; i++) {
    const failure = failureOf(userIds[i] as string);
    if (!failure) continue;
    if (failures === NO_FAILURES) failures = new Map();
    (failures as Map<number, FailureMark>).set(i, failure);
  }
  return {
    shared: sharedFieldsOf(ctx),
    userIds: userIds.length > 1 ? packStrings(userIds) : userIds,
    idAt: ctx.ids.objectIds(userIds.length),
    variables,
    rendered: 'all' in variables ? { all: render(variables.all) } : { each: variables.each.map(render) },
    failures,
  };
}

/** One delivery at a time (campaigns: each recipient records its delivery's id as it goes). */
export function createDeliveryBuilder(ctx: DeliveryContext): (userId: string, variables: Variables) => Delivery {
  const render = createRenderer(ctx);
  const failureOf = createFailureCheck(ctx);
  const shared = sharedFieldsOf(ctx);
  return (userId, variables) =>
    toDelivery(shared, ctx.ids.objectId(), userId, variables, render(variables), failureOf(userId));
}

// ---- delivery runs ----

/** The fields every delivery of a run has in common, named as on Delivery (filters read either). */
export type SharedDeliveryFields = Pick<
  Delivery,
  | 'appId'
  | 'notificationId'
  | 'campaignId'
  | 'templateId'
  | 'templateKey'
  | 'channels'
  | 'mode'
  | 'title'
  | 'tag'
  | 'pushData'
  | 'createdAt'
>;

/** One value for every member, or one per member (batch sends with per-target variables). */
export type PerMember<T> = { readonly all: T } | { readonly each: readonly T[] };

export interface FailureMark {
  reason: string;
  scenario: string | null;
}

/** Read-only list access: an array, or strings packed into one (see packStrings). */
export interface StringList {
  readonly length: number;
  at(index: number): string | undefined;
}

/**
 * The strings in one heap string plus end offsets. A stored batch then holds two objects
 * instead of 10,000 strings, which the garbage collector would copy when they survive and
 * mark on every full collection (bench/: batch send, and a million stored deliveries).
 */
export function packStrings(values: readonly string[]): StringList {
  const text = values.join('');
  const ends = new Uint32Array(values.length);
  let end = 0;
  for (let i = 0; i < values.length; i++) ends[i] = end += (values[i] as string).length;
  return {
    length: values.length,
    at: (index) =>
      index < 0 || index >= ends.length ? undefined : text.slice(index === 0 ? 0 : ends[index - 1], ends[index]),
  };
}

export interface DeliveryRun {
  /** Held by reference: every member's record reads these. */
  readonly shared: SharedDeliveryFields;
  readonly userIds: StringList;
  /** Delivery id of member `i` (ids are reserved when the run is made; see Ids.objectIds). */
  readonly idAt: (i: number) => string;
  readonly variables: PerMember<Record<string, unknown>>;
  readonly rendered: PerMember<Record<string, unknown>>;
  /** Failed members by index; every other member was sent. */
  readonly failures: ReadonlyMap<number, FailureMark>;
}

export const memberValue = <T>(values: PerMember<T>, i: number): T =>
  'all' in values ? values.all : (values.each[i] as T);

export const memberStatus = (run: DeliveryRun, i: number): Delivery['status'] =>
  run.failures.has(i) ? 'failed' : 'sent';

/** Member `i` as a Delivery record. */
export function deliveryAt(run: DeliveryRun, i: number): Delivery {
  return toDelivery(
    run.shared,
    run.idAt(i),
    run.userIds.at(i) as string,
    memberValue(run.variables, i),
    memberValue(run.rendered, i),
    run.failures.get(i),
  );
}

/** The one place a Delivery record is shaped (same key order for runs and one-by-one sends). */
export function toDelivery(
  shared: SharedDeliveryFields,
  id: string,
  userId: string,
  variables: Record<string, unknown>,
  rendered: Record<string, unknown>,
  failure: FailureMark | null | undefined,
): Delivery {
  return {
    id,
    appId: shared.appId,
    notificationId: shared.notificationId,
    campaignId: shared.campaignId,
    userId,
    templateId: shared.templateId,
    templateKey: shared.templateKey,
    channels: shared.channels,
    mode: shared.mode,
    title: shared.title,
    tag: shared.tag,
    variables,
    rendered,
    pushData: shared.pushData,
    status: failure ? 'failed' : 'sent',
    failureReason: failure?.reason ?? null,
    scenario: failure?.scenario ?? null,
    createdAt: shared.createdAt,
  };
}
