/**
 * Turns a send (template, users, variables) into a delivery batch for the store: the
 * template's compiled content, the fault policy asked once per user. Used by one-call sends
 * and by campaign chunks alike; the store decides how to hold it, and renders a delivery's
 * content when it is read (see createDeliveryBatch).
 */
import type { Delivery, Template } from '../schemas/records.js';
import type {
  ChannelCatalog,
  DeliveryBatch,
  DeliveryFailureMark,
  DeliveryFaultPolicy,
  Events,
  PerUser,
  RenderContent,
  SharedDeliveryFields,
  StoredDeliveries,
} from './ports.js';
import { channelIdsOf } from './template-view.js';
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
type ContentCompiler = (template: Template, rowContent: ReadonlyMap<string, Record<string, unknown>>) => RenderContent;

/**
 * Compiled content for one service, cached per content object: a template's `content` and
 * each row's content are scanned once, not per send. Rows are never edited in place (a PUT
 * stores a new row with a new content object), so a changed row is compiled afresh for the
 * sends after it, and deliveries already made go on rendering the content they were sent
 * with.
 */
export function createContentCompiler(): ContentCompiler {
  const compiled = new WeakMap<object, RenderContent>();
  // Content is an object (the schemas say so), which renders to a fresh object per call.
  const cached = (content: Record<string, unknown>): RenderContent => {
    let render = compiled.get(content);
    if (!render) compiled.set(content, (render = compileContent(content) as RenderContent));
    return render;
  };
  // The last content composed with rows, given again while the template and its rows are the
  // same objects: every delivery keeps its send's renderer, and a load test sends one template.
  let last: { content: object; rows: [string, object][]; render: RenderContent } | undefined;
  /** The same types with the same content objects, in the same order (the order of the rendered keys). */
  const sameRows = (rows: [string, object][], rowContent: ReadonlyMap<string, object>): boolean => {
    if (rows.length !== rowContent.size) return false;
    let i = 0;
    for (const [type, content] of rowContent) {
      const [lastType, lastContent] = rows[i++]!;
      if (type !== lastType || content !== lastContent) return false;
    }
    return true;
  };
  return (template, rowContent) => {
    const base = cached(template.content);
    if (rowContent.size === 0) return base;
    if (last?.content === template.content && sameRows(last.rows, rowContent)) return last.render;
    const rows = [...rowContent].map(([type, content]) => [type, cached(content)] as const);
    const render: RenderContent = (variables) => {
      const out = base(variables);
      for (const [type, renderRow] of rows) out[type] = renderRow(variables);
      return out;
    };
    last = { content: template.content, rows: [...rowContent], render };
    return render;
  };
}

const NO_CHANNEL_REASON = 'no channel linked to the template is enabled in this app';
const TEMPLATE_WITHOUT_CHANNELS = 'the template has no channels: give it channelIds (or content per channel type)';

/**
 * The template's channel types a send goes out on, decided by the template's own linked
 * channels (real docs: delivery goes through the linked channels and skips disabled ones): a
 * type is kept when one of its linked channels is enabled. A type the app has no channel record
 * of at all stays, so fixture-only setups deliver as declared; a type whose channels in the app
 * are all unlinked from the template is left out. Returns the template's own array when nothing
 * is skipped.
 */
export function deliveredChannels(channels: ChannelCatalog, appId: string, template: Template): string[] {
  const appChannels = channels.list(appId);
  if (appChannels.length === 0) return template.channels;
  const linked = new Set(channelIdsOf(channels, appId, template));
  const delivers = (type: string) => {
    let ofType = false;
    for (const ch of appChannels) {
      if (ch.type !== type) continue;
      if (linked.has(ch.id) && ch.enabled) return true;
      ofType = true;
    }
    return !ofType;
  };
  const kept = template.channels.filter(delivers);
  return kept.length === template.channels.length ? template.channels : kept;
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
  if (noChannel === null && ctx.faults.idle?.(ctx.appId)) return null;
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

/**
 * The deliveries of one send as a plain batch: no record per user, and no content rendered.
 * The batch carries the compiled content of the send's template and rows, which later edits
 * do not change (a PUT stores new content), and the store renders a delivery when it is
 * read. Content rendered at the send would be kept for every delivery, up to a million: for a
 * realtime send, two objects and their strings of the eleven or so it keeps, each one work for
 * the garbage collector while it lives (docs/performance.md).
 */
export function createDeliveryBatch(
  ctx: DeliveryContext,
  userIds: readonly string[],
  variables: PerUser<Variables>,
): DeliveryBatch {
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
    render: ctx.compile(ctx.template, ctx.rowContent),
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
