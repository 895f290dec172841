/**
 * The emulated API's route table, mounted under /api and /v3/business-messaging/api.
 * Middleware order: body limit → auth → scenario → route (the journal wraps it at the root).
 */
import { Hono } from 'hono';
import type { AppEnv } from '../context.js';
import type { Emulator } from '../../emulator.js';
import { limitBody } from '../middleware/body-limit.js';
import { auth } from '../middleware/auth.js';
import { scenarios } from '../middleware/scenario.js';
import { notificationRoutes } from './notifications.js';
import { campaignRoutes } from './campaigns.js';
import { templateRoutes } from './templates.js';
import { channelRoutes } from './channels.js';
import { templateChannelRoutes } from './template-channels.js';
import { analyticsRoutes } from './analytics.js';

export function apiRoutes(emulator: Emulator): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .use(limitBody(emulator))
    .use(auth())
    .use(scenarios())
    .route('/', notificationRoutes)
    .route('/', campaignRoutes)
    .route('/', templateRoutes)
    .route('/', channelRoutes)
    .route('/', templateChannelRoutes)
    .route('/', analyticsRoutes);
}
