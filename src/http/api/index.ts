/**
 * The emulated API's route table, mounted under /api and /v3/business-messaging/api.
 * Middleware order: body limit → auth → scenario faults → route (the journal wraps it at the root).
 * Each table gets the services it uses, and the tenant's `appId` from auth on the context.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../context.js';
import type { Emulator } from '../../emulator.js';
import { limitBody } from '../middleware/body-limit.js';
import { auth } from '../middleware/auth.js';
import { scenarioFaults } from '../middleware/scenario-faults.js';
import { notificationRoutes } from './notifications.js';
import { campaignRoutes } from './campaigns.js';
import { templateRoutes } from './templates.js';
import { channelRoutes } from './channels.js';
import { templateChannelRoutes } from './template-channels.js';
import { analyticsRoutes } from './analytics.js';

export function apiRoutes(emulator: Emulator): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .use(limitBody(emulator.options))
    .use(auth(emulator.apps))
    .use(scenarioFaults(emulator.scenarios, emulator.clock))
    .route('/', notificationRoutes(emulator.services))
    .route('/', campaignRoutes(emulator.services))
    .route('/', templateRoutes(emulator.services))
    .route('/', channelRoutes(emulator.services))
    .route('/', templateChannelRoutes(emulator.services))
    .route('/', analyticsRoutes(emulator.services));
}
