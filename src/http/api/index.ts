/**
 * The emulated API's route table, mounted under /api and /v3/business-messaging/api.
 * One middleware, the API gate (body limit → auth → scenario faults), then the route; the
 * journal wraps both at the root.
 * Each table gets the services it uses, and the tenant's `appId` from auth on the context.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../context.js';
import type { ApiParts } from '../wiring.js';
import { apiGate } from '../middleware/api-gate.js';
import type { SendPipeline } from '../send-pipeline.js';
import { notificationRoutes } from './notifications.js';
import { campaignRoutes } from './campaigns.js';
import { templateRoutes } from './templates.js';
import { channelRoutes } from './channels.js';
import { templateChannelRoutes } from './template-channels.js';
import { analyticsRoutes } from './analytics.js';
import { proxyRoutes } from './proxy.js';

/**
 * `send`: the send pipeline, which the server's fast path shares (app.ts). `parts.upstream`:
 * proxy mode, where every call the gate lets through is forwarded to the live service instead.
 */
export function apiRoutes(parts: ApiParts, send: SendPipeline): Hono<AppEnv> {
  if (parts.upstream !== null)
    return new Hono<AppEnv>().use(apiGate(parts, true)).route('/', proxyRoutes(parts.upstream, parts.options));
  return new Hono<AppEnv>()
    .use(apiGate(parts))
    .route('/', notificationRoutes({ send }))
    .route(
      '/',
      campaignRoutes({
        campaigns: parts.services.campaigns,
        uploadLimitBytes: parts.options.uploadLimitBytes,
      }),
    )
    .route('/', templateRoutes(parts.services))
    .route('/', channelRoutes(parts.services))
    .route('/', templateChannelRoutes(parts.services))
    .route('/', analyticsRoutes(parts.services, parts.reads));
}
