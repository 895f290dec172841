/**
 * Turns a send (template, users, variables) into a delivery batch for the store: content
 * rendered once per run of the same variables object, the fault policy asked once per
 * user. Used by one-call sends and by campaign chunks alike; the store decides how to hold
 * it.
 */
import type { Delivery, Template } from '../schemas/records.js';
import type {
  DeliveryBatch,
  DeliveryFailureMark,
  DeliveryFaultPolicy,
  Events,
  PerUser,
  SharedDeliveryFields,
  StoredDeliveries,
} from './ports.js';
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

/**
 * Renders again only when the variables object differs from the previous one: a batch with
 * shared variables renders once, and so does a run of recipients sharing one object. Not a
 * WeakMap of every object seen: with variables for each of 10,000 targets nothing repeats,
 * and its 10,000 insertions cost more than the rendering they were meant to spare.
 */
function createRenderer(ctx: DeliveryContext): (variables: Variables) => Variables {
  const renderContent = ctx.compile(ctx.template, ctx.rowContent);
  let lastVariables: Variables | undefined;
  let lastRendered: Variables | undefined;
  return (variables) => {
    if (variables !== lastVariables || lastRendered === undefined) {
      lastVariables = variables;
      lastRendered = renderContent(variables) as Variables;
    }
    return lastRendered;
  };
}

/**
 * Whether the delivery to `userId` fails: every channel switched off, or a failDelivery rule.
 * Null when no delivery of this send can fail (channels to deliver on, no rule that could fire).
 */
function createFailureCheck(ctx: DeliveryContext): ((userId: string) => DeliveryFailureMark | null) | null {
  const noChannel: DeliveryFailureMark | null =
    ctx.channels.length > 0
      ? null
      : {
          reason: ctx.template.channels.length === 0 ? TEMPLATE_WITHOUT_CHANNELS : NO_CHANNEL_REASON,
          scenario: null,
        };
  if (noChannel === null && ctx.faults.idle?.()) return null;
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

const NO_FAILURES: ReadonlyMap<number, DeliveryFailureMark> = new Map();

/** The deliveries of one send as a plain batch: no record per user. */
export function createDeliveryBatch(
  ctx: DeliveryContext,
  userIds: readonly string[],
  variables: PerUser<Variables>,
): DeliveryBatch {
  const render = createRenderer(ctx);
  const failureOf = createFailureCheck(ctx);
  let failures = NO_FAILURES;
  for (let i = 0; failureOf !== null && i < userIds.length; i++) {
    const failure = failureOf(userIds[i] as string);
    if (!failure) continue;
    if (failures === NO_FAILURES) failures = new Map();
    (failures as Map<number, DeliveryFailureMark>).set(i, failure);
  }
  return {
    shared: sharedFieldsOf(ctx),
    userIds,
    variables,
    rendered: 'all' in variables ? { all: render(variables.all) } : { each: variables.each.map(render) },
    failures,
  };
}

/** A `delivery` event whose record is built when first read (a class: its getter is shared, not one per event). */
class DeliveryEvent {
  readonly type = 'delivery';
  #built: Delivery | undefined;
  constructor(
    private readonly stored: StoredDeliveries,
    private readonly index: number,
  ) {}
  get delivery(): Delivery {
    return (this.#built ??= this.stored.at(this.index));
  }
}

/**
 * One `delivery` event per stored delivery, when anyone listens. Each record is built when a
 * listener first reads it, not as the send emits it: a long-poll only counts the events, and
 * the event stream builds each one as it writes it, in slices, rather than all 10,000 of a
 * batch within the send.
 */
export function emitDeliveries(events: Events, stored: StoredDeliveries): void {
  if (!events.hasSubscribers()) return;
  for (let i = 0; i < stored.length; i++) events.emit(new DeliveryEvent(stored, i));
}
