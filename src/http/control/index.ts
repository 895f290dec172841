/**
 * The control plane's route table (paths start with /__; mounted at the root) (never needs appid/apikey).
 */
import { Hono } from 'hono';
import type { AppEnv } from '../context.js';
import type { Emulator } from '../../emulator.js';
import { adminAuth } from '../middleware/admin-auth.js';
import { healthRoutes } from './health.js';
import { inspectRoutes } from './inspect.js';
import { scenarioRoutes } from './scenarios.js';
import { inspectCampaignRoutes } from './inspect-campaigns.js';
import { streamRoutes } from './stream.js';
import { clockRoutes } from './clock.js';
import { openapiRoutes } from './openapi.js';

export function controlRoutes(emulator: Emulator): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .use('/__*', adminAuth(emulator))
    .route('/__health', healthRoutes)
    .route('/__inspect/campaigns', inspectCampaignRoutes)
    .route('/__inspect/stream', streamRoutes)
    .route('/__clock', clockRoutes)
    .route('/__inspect', inspectRoutes)
    .route('/__scenarios', scenarioRoutes)
    .route('/__openapi.json', openapiRoutes());
}
