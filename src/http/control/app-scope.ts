/**
 * `?appId=` on the control plane (docs/reference.md#apps-as-namespaces): the app a clock,
 * scenario, reset or by-id inspect request is scoped to. The strict-query rules of every
 * endpoint: an unknown parameter or one given twice is a 400; an empty `appId` is a 400 on a
 * write (where it would mean "every app"), absent on a read; in strict mode an app that is not
 * configured is a 404 naming it; in open mode a write makes the app known, as its first API
 * call would.
 */
import type { Context } from 'hono';
import { appNotConfigured } from '../../domain/error-messages.js';
import type { AppRegistry } from '../../catalog/apps.js';
import { parseQuery } from '../validate.js';
import { AppScopeQuerySchema } from '../../schemas/control.js';

/** Refuses an app strict mode does not know; open mode remembers it when `remember`. */
export function requireKnownApp(apps: AppRegistry, appId: string, remember: boolean): string {
  if (apps.mode === 'strict' && !apps.find(appId)) throw appNotConfigured(appId);
  if (remember) apps.remember(appId);
  return appId;
}

/**
 * The request's `?appId=` (undefined when absent), checked as the module comment says.
 * `write`: the request changes state (an empty value is refused, open mode remembers the app).
 */
export function appScope(c: Context, apps: AppRegistry, { write }: { write: boolean }): string | undefined {
  const { appId } = parseQuery(c, AppScopeQuerySchema, write ? { emptyIsError: ['appId'] } : {});
  return appId === undefined ? undefined : requireKnownApp(apps, appId, write);
}
