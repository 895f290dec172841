/**
 * One-call send (POST /api/notifications/send), following the order of checks in docs/reference.md#errors:
 * mode → target count → template lookup → approved → variables. Body shape has already
 * been checked by the schema.
 */
import type { SendNotificationBody } from '../schemas/notifications.js';
import type { Notification, Template } from '../schemas/records.js';
import { badRequest, type ErrorDetails } from './errors.js';
import {
  invalidMode,
  invalidVariables,
  targetLimitExceeded,
  templateNotApproved,
  templateNotFound,
} from './error-messages.js';
import type { DeliveryFaultPolicy, PerUser, SendDeps } from './ports.js';
import { createContentCompiler, createDeliveryBatch, deliveredChannels, emitDeliveries } from './deliveries.js';
import { declaredKeys, variablesChecker } from './variables.js';
import { isJsonObject } from '../schemas/json-object.js';
import { rowContentByType } from './template-channels.js';
import { distinctStrings } from './distinct-strings.js';

export const TARGET_LIMITS = { realtime: 1, batch: 10_000 } as const;

type Mode = keyof typeof TARGET_LIMITS;
type Variables = Record<string, unknown>;

export function assertMode(mode: string): asserts mode is Mode {
  if (mode !== 'realtime' && mode !== 'batch') throw invalidMode(mode);
}

function assertTargetCount(mode: Mode, count: number): void {
  const limit = TARGET_LIMITS[mode];
  if (count > limit) throw targetLimitExceeded(mode, count, limit);
}

export function assertApproved(template: Template): void {
  if (template.status !== 'approved') throw templateNotApproved(template);
}

/** The keys of the templates `appId` sees, for a 404's "did you mean" (read only on that path). */
const keysOf = (deps: SendDeps, appId: string) => deps.templates.list(appId).map((t) => t.key);

function findTemplate(deps: SendDeps, appId: string, ref: SendNotificationBody['template']): Template {
  const byKey = ref.key !== undefined ? deps.templates.findByKey(appId, ref.key) : undefined;
  const byId = ref.id !== undefined ? deps.templates.findById(appId, ref.id) : undefined;
  if (ref.key !== undefined && ref.id !== undefined && byKey && byId && byKey.id !== byId.id) {
    throw badRequest(
      `"template.key" (${ref.key}) and "template.id" (${ref.id}) name different templates; give one of them.`,
      {
        'template.id': `names template "${byId.key}", not "${ref.key}"`,
      },
    );
  }
  // Both given: each must exist (a missing one is a 404 naming it), then they must agree.
  if (ref.id !== undefined && !byId) throw templateNotFound(ref.id, deps.templates.origin, keysOf(deps, appId));
  // The schema asks for a key or an id: without a template here, the key was given and is unknown.
  const template = byId ?? byKey;
  if (!template || (ref.key !== undefined && !byKey))
    throw templateNotFound(ref.key ?? '', deps.templates.origin, keysOf(deps, appId));
  return template;
}

/**
 * Batch mode accepts `{ userId: { var: value } }`: recognised when every key is a target with
 * an object value. Returns each target's variables in `targets` order (none for a target the
 * map leaves out), or undefined when the variables are shared.
 */
function perTargetVariables(
  declared: ReadonlySet<string>,
  variables: Variables,
  targets: readonly string[],
): Variables[] | undefined {
  const keys = Object.keys(variables);
  if (keys.length === 0 || keys.length > targets.length) return undefined;
  const values: Variables[] = [];
  for (const key of keys) {
    const value = variables[key];
    if (declared.has(key) || !isJsonObject(value)) return undefined;
    values.push(value);
  }
  // Most such maps are built from the same list as the targets, in the same order.
  if (keys.length === targets.length && keys.every((key, i) => key === targets[i])) return values;
  // `targets` are distinct, so every key is a target when as many targets are keys. Looked up in
  // the object itself (own keys only: a target named "toString" is not Object's), not in a Set of
  // the targets, which would hash 10,000 fresh strings a second time.
  let keysThatAreTargets = 0;
  for (const userId of targets) if (Object.hasOwn(variables, userId)) keysThatAreTargets++;
  if (keysThatAreTargets !== keys.length) return undefined;
  return targets.map((userId) => (Object.hasOwn(variables, userId) ? (variables[userId] as Variables) : {}));
}

/** Variables for each target (in `targets` order), or ERR_INVALID_VARIABLES listing every problem. */
function resolveVariables(
  template: Template,
  mode: Mode,
  variables: Variables,
  targets: readonly string[],
): PerUser<Variables> {
  const declared = declaredKeys(template.variableSchema);
  const check = variablesChecker(template.variableSchema, declared);
  let details: ErrorDetails = {};
  let resolved: PerUser<Variables>;
  const each = mode === 'batch' ? perTargetVariables(declared, variables, targets) : undefined;
  if (each) {
    for (let i = 0; i < targets.length; i++) {
      const problems = check(each[i] as Variables, 'template.variables', targets[i]);
      if (problems) Object.assign(details, problems);
    }
    resolved = { each };
  } else {
    details = check(variables, 'template.variables') ?? {};
    resolved = { all: variables };
  }
  if (Object.keys(details).length > 0) throw invalidVariables(template.key, details);
  return resolved;
}

export function createNotificationService(deps: SendDeps) {
  const compile = createContentCompiler();
  return {
    send(appId: string, body: SendNotificationBody, faults: DeliveryFaultPolicy): Notification {
      assertMode(body.mode);
      const mode = body.mode;
      assertTargetCount(mode, body.targets.length);
      const template = findTemplate(deps, appId, body.template);
      assertApproved(template);
      // docs/reference.md#send-a-notification: a target named twice is delivered once.
      const targets = distinctStrings(body.targets);
      const variables = resolveVariables(template, mode, body.template.variables ?? {}, targets);

      const createdAt = deps.clocks.clockFor(appId).nowIso();
      const channels = deliveredChannels(deps.channels, appId, template);
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
      const batch = createDeliveryBatch(
        {
          appId,
          template,
          mode,
          title: notification.title,
          tag: notification.tag,
          pushData: body.template.notificationPushData ?? null,
          notificationId: notification.notificationId,
          campaignId: null,
          createdAt,
          faults,
          channels,
          rowContent: rowContentByType(deps.store, deps.channels, appId, template),
          compile,
        },
        targets,
        variables,
      );
      const failedCount = batch.failures.size;
      // Spelled out (same key order as a spread): `{ ...notification, more }` is a slow path in V8.
      const n = notification;
      const record = {
        notificationId: n.notificationId,
        templateKey: n.templateKey,
        channels: n.channels,
        mode: n.mode,
        title: n.title,
        tag: n.tag,
        sentFrom: n.sentFrom,
        createdAt: n.createdAt,
        appId,
        templateId: template.id,
        targetCount: targets.length,
        sentCount: targets.length - failedCount,
        failedCount,
      };
      deps.store.addNotification(record);
      const stored = deps.store.addDeliveries(batch, deps.ids);
      deps.events.emit({ type: 'notification', notification: record });
      emitDeliveries(deps.events, stored);
      return notification;
    },
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
