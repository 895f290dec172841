/**
 * Turns a (template, user, variables) triple into a Delivery record, asking the fault
 * policy whether it fails. Used by one-call sends and by campaign sends alike.
 */
import type { Delivery, Template } from '../schemas/records.js';
import type { DeliveryFaultPolicy, Ids } from './ports.js';
import {
  packStrings,
  toDelivery,
  type DeliveryRun,
  type FailureMark,
  type PerMember,
  type SharedDeliveryFields,
} from './delivery-run.js';
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
