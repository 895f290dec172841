/**
 * GET /__health: liveness plus a summary of what this instance holds.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../context.js';
import type { ControlParts } from '../wiring.js';
import { VERSION } from '../../version.js';
/** What the health answer reads: the counters and settings of one emulator. */
type HealthDeps = Pick<
  ControlParts,
  | 'records'
  | 'startedAt'
  | 'stopwatch'
  | 'apps'
  | 'templates'
  | 'scenarios'
  | 'options'
  | 'clock'
  | 'memory'
  | 'traceOrigin'
  | 'upstream'
>;

/** `upstream`: proxy mode's counters, shown as `upstream` (null when not proxying). */
export function healthRoutes(deps: HealthDeps) {
  const { records, startedAt, stopwatch, apps, templates, scenarios, options, clock, memory, traceOrigin, upstream } =
    deps;
  return new Hono<AppEnv>().get('/', (c) => {
    const stats = records.stats();
    return c.json({
      status: 'ok',
      version: VERSION,
      uptimeMs: Math.round(stopwatch() - startedAt),
      auth: apps.mode,
      templates: templates.count(),
      apps: apps.count(),
      activeScenarios: scenarios.active(),
      deliveries: stats.deliveries,
      droppedDeliveries: stats.droppedDeliveries,
      maxDeliveries: options.maxDeliveries,
      journal: stats.journal,
      maxJournal: options.maxJournal,
      // Every kind of record: how many are held, the cap, and how many the cap has dropped.
      retention: {
        deliveries: { stored: stats.deliveries, max: options.maxDeliveries, dropped: stats.droppedDeliveries },
        notifications: {
          stored: stats.notifications,
          max: options.maxNotifications,
          dropped: stats.droppedNotifications,
        },
        journal: { stored: stats.journal, max: options.maxJournal, dropped: stats.droppedJournal },
        campaigns: { stored: stats.campaigns, max: options.maxCampaigns, dropped: stats.droppedCampaigns },
        recipients: { stored: stats.recipients, max: options.maxRecipients, dropped: stats.droppedRecipients },
        analyticsEvents: {
          stored: stats.analyticsEvents,
          max: options.maxAnalyticsEvents,
          dropped: stats.droppedAnalyticsEvents,
        },
        // Open mode's remembered apps (configured ones are never dropped).
        apps: { stored: apps.count(), max: options.maxApps, dropped: apps.dropped },
      },
      clock: { now: clock.nowIso(), mode: clock.mode },
      memory: memory(),
      trace: traceOrigin.current,
      upstream: upstream?.stats() ?? null,
    });
  });
}
