/**
 * The control plane's route table (paths start with /__; mounted at the root) (never needs appid/apikey).
 */
import { Hono } from 'hono';
import type { AppEnv } from '../context.js';
import type { Emulator } from '../../emulator.js';
import { adminAuth } from '../middleware/admin-auth.js';
import { hostOriginGuard } from '../middleware/host-origin-guard.js';
import { limitBody } from '../middleware/body-limit.js';
import { healthRoutes } from './health.js';
import { inspectRoutes } from './inspect.js';
import { scenarioControlRoutes } from './scenarios.js';
import { inspectCampaignRoutes } from './inspect-campaigns.js';
import { streamRoutes } from './stream.js';
import { clockRoutes } from './clock.js';
import { openapiRoutes } from './openapi.js';
import { resetRoutes } from './reset.js';
import { inspectorRoutes } from './inspector.js';
import { appRoutes, deliveryDetailRoutes, deliveryStatsRoutes } from './inspector-data.js';

export function controlRoutes(emulator: Emulator): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .use('/__*', hostOriginGuard(emulator.options)) // first: before the page, the token and any body is read
    .route('/', inspectorRoutes()) // the page itself needs no token: it asks for one (admin-auth.ts)
    .use('/__*', limitBody(emulator.options)) // the API's JSON limit: no control body comes near it
    .use('/__*', adminAuth(emulator.options))
    .route('/__apps', appRoutes(emulator))
    .route('/__inspect/delivery-stats', deliveryStatsRoutes(emulator))
    .route('/__health', healthRoutes(emulator))
    .route('/__inspect/campaigns', inspectCampaignRoutes(emulator.services))
    .route('/__inspect/stream', streamRoutes(emulator))
    .route('/__clock', clockRoutes(emulator))
    .route('/__reset', resetRoutes(emulator))
    .route('/__inspect', inspectRoutes(emulator))
    .route('/__inspect/deliveries', deliveryDetailRoutes(emulator))
    .route('/__scenarios', scenarioControlRoutes(emulator))
    .route('/__openapi.json', openapiRoutes());
}
