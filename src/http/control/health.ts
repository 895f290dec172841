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
      clock: { now: emulator.clock.nowIso(), mode: emulator.clock.mode },
    });
  });
}
