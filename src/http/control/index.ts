/**
 * The control plane (paths start with /__; never needs appid/apikey): every resource in one
 * table, each with the file that answers it, mounted once behind the admin token and the
 * body limit. The web inspector's page itself needs no token: it asks for one (admin-auth.ts).
 */
import { Hono } from 'hono';
import type { AppEnv } from '../context.js';
import type { ControlParts } from '../wiring.js';
import { adminAuth } from '../middleware/admin-auth.js';
import { hostOriginGuard } from '../middleware/host-origin-guard.js';
import { limitBody } from '../middleware/body-limit.js';
import { appRoutes } from './apps.js';
import { clockRoutes } from './clock.js';
import { healthRoutes } from './health.js';
import { inspectCampaignRoutes } from './inspect-campaigns.js';
import { inspectClearRoutes } from './inspect-clear.js';
import { inspectDeliveryRoutes } from './inspect-deliveries.js';
import { inspectDeliveryStatsRoutes } from './inspect-delivery-stats.js';
import { inspectNotificationRoutes } from './inspect-notifications.js';
import { inspectRequestRoutes } from './inspect-requests.js';
import { inspectStreamRoutes } from './inspect-stream.js';
import { inspectorRoutes } from './inspector.js';
import { openapiRoutes } from './openapi.js';
import { resetRoutes } from './reset.js';
import { scenarioControlRoutes } from './scenarios.js';
import { exportRoutes, importRoutes } from './trace.js';
import { inspectRequestHarRoutes } from './inspect-requests-har.js';

/** Every control resource: its path and the routes under it (methods: test/http/routes.test.ts's snapshot). */
const CONTROL_ROUTES: [path: string, routes: (parts: ControlParts) => Hono<AppEnv>][] = [
  ['/__health', healthRoutes],
  ['/__clock', clockRoutes],
  ['/__reset', resetRoutes],
  ['/__scenarios', scenarioControlRoutes],
  ['/__apps', appRoutes],
  ['/__inspect', inspectClearRoutes],
  ['/__inspect/deliveries', inspectDeliveryRoutes],
  ['/__inspect/delivery-stats', inspectDeliveryStatsRoutes],
  ['/__inspect/notifications', inspectNotificationRoutes],
  ['/__inspect/requests', inspectRequestRoutes],
  ['/__inspect/requests.har', inspectRequestHarRoutes],
  ['/__inspect/campaigns', inspectCampaignRoutes],
  ['/__inspect/stream', inspectStreamRoutes],
  ['/__openapi.json', () => openapiRoutes()],
  ['/__export', exportRoutes],
  ['/__import', importRoutes],
];

export function controlRoutes(parts: ControlParts): Hono<AppEnv> {
  const app = new Hono<AppEnv>()
    .use('/__*', hostOriginGuard(parts.options)) // first: before the page, the token and any body is read
    .route('/', inspectorRoutes()) // the page itself needs no token: it asks for one (admin-auth.ts)
    .use('/__*', limitBody(parts.options)) // the API's JSON limit: no control body comes near it
    .use('/__*', adminAuth(parts.options));
  for (const [path, routes] of CONTROL_ROUTES) app.route(path, routes(parts));
  return app;
}
