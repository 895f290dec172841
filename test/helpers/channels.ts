/** The in-app channel a template made through the API links to when a test needs no channel of its own. */
import type { EmulatorApp } from '../../src/index.js';
import type { Channel } from './api-types.js';
import { call, callOk, type CallOptions } from './app.js';

const ALERTS = { name: 'Alerts', type: 'in_app', templateType: 'ui' };

/**
 * The app's in-app channel `alerts`, made on first use. A template is linked to one or more
 * channels when it is created, so `POST /api/templates` needs one.
 */
export async function alertsChannel(app: EmulatorApp, options: CallOptions = {}): Promise<string> {
  const found = await call<Channel>(app, 'GET', '/api/channels/alerts', undefined, options);
  if (found.status === 200) return found.body.id;
  return (await callOk<Channel>(app, 'POST', '/api/channels', ALERTS, options)).id;
}

/** A create body with the app's `alerts` channel linked, unless the body names channels itself. */
export async function withChannel(
  app: EmulatorApp,
  body: Record<string, unknown>,
  options: CallOptions = {},
): Promise<Record<string, unknown>> {
  return 'channelIds' in body ? body : { channelIds: [await alertsChannel(app, options)], ...body };
}
