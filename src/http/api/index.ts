/**
 * The emulated API's route table, mounted under /api and /v3/business-messaging/api.
 * One middleware, the API gate (body limit → auth → scenario faults), then the route; the
 * journal wraps both at the root.
 * Each table gets the services it uses, and the tenant's `appId` from auth on the context.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../context.js';
import type { Emulator } from '../../emulator.js';
import { apiGate } from '../middleware/api-gate.js';
import type { SendPipeline } from '../send-pipeline.js';
import { notificationRoutes } from './notifications.js';
import { campaignRoutes } from './campaigns.js';
import { templateRoutes } from './templates.js';
import { channelRoutes } from './channels.js';
import { templateChannelRoutes } from './template-channels.js';
import { analyticsRoutes } from './analytics.js';
import { proxyRoutes } from './proxy.js';
import type { Upstream } from '../../upstream/proxy.js';

/**
 * `send`: the send pipeline, which the server's fast path shares (app.ts). `upstream`: proxy
 * mode, where every call the gate lets through is forwarded to the live service instead.
 */
export function apiRoutes(emulator: Emulator, send: SendPipeline, upstream: Upstream | null = null): Hono<AppEnv> {
  if (upstream !== null)
    return new Hono<AppEnv>().use(apiGate(emulator, true)).route('/', proxyRoutes(upstream, emulator.options));
  return new Hono<AppEnv>()
    .use(apiGate(emulator))
    .route('/', notificationRoutes({ send }))
    .route(
      '/',
      campaignRoutes({
        campaigns: emulator.services.campaigns,
        uploadLimitBytes: emulator.options.uploadLimitBytes,
      }),
    )
    .route('/', templateRoutes(emulator.services))
    .route('/', channelRoutes(emulator.services))
    .route('/', templateChannelRoutes(emulator.services))
    .route('/', analyticsRoutes(emulator.services, emulator.store.turns));
}
