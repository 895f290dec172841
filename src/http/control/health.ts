/**
 * GET /__health: liveness plus a summary of what this instance holds.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../context.js';
import type { Emulator } from '../../emulator.js';
import { VERSION } from '../../version.js';
import { realNow } from '../../platform/clock.js';

export function healthRoutes(emulator: Emulator) {
  return new Hono<AppEnv>().get('/', (c) => {
    const stats = emulator.store.stats();
    return c.json({
      status: 'ok',
      version: VERSION,
      uptimeMs: Math.round(realNow() - emulator.startedAt),
      auth: emulator.apps.mode,
      templates: emulator.templates.count(),
      apps: emulator.apps.list().length,
      activeScenarios: emulator.scenarios.active(),
      deliveries: stats.deliveries,
      droppedDeliveries: stats.droppedDeliveries,
      maxDeliveries: emulator.options.maxDeliveries,
      journal: stats.journal,
      maxJournal: emulator.options.maxJournal,
      // Every kind of record: how many are held, the cap, and how many the cap has dropped.
      retention: {
        deliveries: { stored: stats.deliveries, max: emulator.options.maxDeliveries, dropped: stats.droppedDeliveries },
        notifications: {
          stored: stats.notifications,
          max: emulator.options.maxNotifications,
          dropped: stats.droppedNotifications,
        },
        journal: { stored: stats.journal, max: emulator.options.maxJournal, dropped: stats.droppedJournal },
        campaigns: { stored: stats.campaigns, max: emulator.options.maxCampaigns, dropped: stats.droppedCampaigns },
        recipients: { stored: stats.recipients, max: emulator.options.maxRecipients, dropped: stats.droppedRecipients },
      },
      clock: { now: emulator.clock.nowIso(), mode: emulator.clock.mode },
    });
  });
}
