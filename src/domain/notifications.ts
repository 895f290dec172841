/**
 * One-call send (POST /api/notifications/send), following CONTRACT §2's order of checks:
 * mode → target count → template lookup → approved → variables. Body shape has already
 * been checked by the schema.
 */
import type { SendNotificationBody } from '../schemas/api.js';
import type { Delivery, Notification, Template } from '../schemas/records.js';
import { ApiError, badRequest, notFound, type ErrorDetails } from './errors.js';
import type { Clock, DeliveryFaultPolicy, Events, Ids, Store, TemplateCatalog } from './ports.js';
import { createDeliveryBuilder, deliveredChannels } from './delivery.js';
import { checkVariables } from './variables.js';

export const TARGET_LIMITS = { realtime: 1, batch: 10_000 } as const;

export interface NotificationServiceDeps {
  store: Store;
  templates: TemplateCatalog;
  clock: Clock;
  ids: Ids;
  events: Events;
}

type Mode = keyof typeof TARGET_LIMITS;
type Variables = Record<string, unknown>;

export function assertMode(mode: string): asserts mode is Mode {
  if (mode !== 'realtime' && mode !== 'batch') {
    throw new ApiError('ERR_INVALID_MODE', `"mode" is "${mode}"; it must be "realtime" or "batch".`, {
      details: { mode: 'must be "realtime" or "batch"' },
    });
  }
}

function assertTargetCount(mode: Mode, count: number): void {
  const limit = TARGET_LIMITS[mode];
  if (count > limit) {
    throw new ApiError(
      'ERR_TARGET_LIMIT_EXCEEDED',
      `${count} targets given; ${mode} mode allows at most ${limit}.${mode === 'realtime' ? ' Use mode "batch" for several users.' : ' Use a campaign with a CSV upload for larger audiences.'}`,
      { details: { targets: `at most ${limit} in ${mode} mode, got ${count}` } },
    );
  }
}

export function assertApproved(template: Template): void {
  if (template.status !== 'approved') {
    throw new ApiError('ERR_TEMPLATE_NOT_APPROVED', `Template "${template.key}" is "${template.status}"; only approved templates can be sent.`, {
      details: { template: `status is "${template.status}"` },
    });
  }
}

function findTemplate(deps: NotificationServiceDeps, appId: string, ref: SendNotificationBody['template']): Template {
  const byKey = ref.key !== undefined ? deps.templates.findByKey(appId, ref.key) : undefined;
  const byId = ref.id !== undefined ? deps.templates.findById(appId, ref.id) : undefined;
  if (ref.key !== undefined && ref.id !== undefined && byKey && byId && byKey.id !== byId.id) {
    throw badRequest(`"template.key" (${ref.key}) and "template.id" (${ref.id}) name different templates; give one of them.`, {
      'template.id': `names template "${byId.key}", not "${ref.key}"`,
    });
  }
  // Both given: each must exist (a missing one is a 404 naming it), then they must agree.
  if (ref.id !== undefined && !byId) throw notFound('template', ref.id);
  if (ref.key !== undefined && !byKey) throw notFound('template', ref.key);
  const template = byId ?? byKey;
  if (!template) throw notFound('template', ref.id ?? ref.key ?? '');
  return template;
}

/** Batch mode accepts `{ userId: { var: value } }`: recognised when every key is a target with an object value. */
function isPerTargetMap(template: Template, variables: Variables, targets: Set<string>): boolean {
  const keys = Object.keys(variables);
  const declared = new Set(template.variableSchema.map((v) => v.key));
  return (
    keys.length > 0 &&
    keys.every((k) => targets.has(k) && !declared.has(k) && typeof variables[k] === 'object' && variables[k] !== null && !Array.isArray(variables[k]))
  );
}

/** Variables for each target, or ERR_INVALID_VARIABLES listing every problem. */
function resolveVariables(template: Template, mode: Mode, variables: Variables, targets: Set<string>): (userId: string) => Variables {
  let details: ErrorDetails;
  let forTarget: (userId: string) => Variables;
  if (mode === 'batch' && isPerTargetMap(template, variables, targets)) {
    details = {};
    for (const userId of targets) {
      Object.assign(details, checkVariables(template.variableSchema, (variables[userId] as Variables | undefined) ?? {}, `template.variables.${userId}`));
    }
    forTarget = (userId) => (variables[userId] as Variables | undefined) ?? {};
  } else {
    details = checkVariables(template.variableSchema, variables, 'template.variables');
    forTarget = () => variables;
  }
  const problems = Object.keys(details);
  if (problems.length > 0) {
    throw new ApiError('ERR_INVALID_VARIABLES', `${problems.length} variable problem(s) for template "${template.key}": ${problems.slice(0, 5).map((k) => `${k} ${details[k]}`).join('; ')}`, { details });
  }
  return forTarget;
}

export function createNotificationService(deps: NotificationServiceDeps) {
  return {
    send(appId: string, body: SendNotificationBody, faults: DeliveryFaultPolicy): Notification {
      assertMode(body.mode);
      const mode = body.mode;
      assertTargetCount(mode, body.targets.length);
      const template = findTemplate(deps, appId, body.template);
      assertApproved(template);
      const targetSet = new Set(body.targets); // CONTRACT §5.1: duplicates delivered once
      const variablesFor = resolveVariables(template, mode, body.template.variables ?? {}, targetSet);

      const createdAt = new Date(deps.clock.now()).toISOString();
      const channels = deliveredChannels(template, deps.store.listChannels(appId));
      const notification: Notification = {
        notificationId: deps.ids.notificationId(),
        templateKey: template.key,
        channels,
        mode,
        title: body.title ?? null,
        tag: body.tag ?? null,
        sentFrom: 'api',
        createdAt,
      };
      const build = createDeliveryBuilder({
        appId, template, mode, title: notification.title, tag: notification.tag,
        pushData: body.template.notificationPushData ?? null,
        notificationId: notification.notificationId, campaignId: null, createdAt, ids: deps.ids, faults, channels,
      });
      // One pass, no intermediate arrays: a 10,000-target batch is on the hot path (bench/).
      const deliveries: Delivery[] = new Array(targetSet.size);
      let failedCount = 0;
      let i = 0;
      for (const userId of targetSet) {
        const delivery = build(userId, variablesFor(userId));
        if (delivery.status === 'failed') failedCount++;
        deliveries[i++] = delivery;
      }
      // Spelled out (same key order as a spread): `{ ...notification, more }` is a slow path in V8.
      const n = notification;
      const record = {
        notificationId: n.notificationId, templateKey: n.templateKey, channels: n.channels, mode: n.mode, title: n.title, tag: n.tag,
        sentFrom: n.sentFrom, createdAt: n.createdAt,
        appId, templateId: template.id, targetCount: targetSet.size, sentCount: deliveries.length - failedCount, failedCount,
      };
      deps.store.addNotification(record);
      deps.store.addDeliveries(deliveries);
      deps.events.emit({ type: 'notification', notification: record });
      for (const delivery of deliveries) deps.events.emit({ type: 'delivery', delivery });
      return notification;
    },
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
