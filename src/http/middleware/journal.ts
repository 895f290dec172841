/**
 * Outermost API middleware: records every API request (refused ones too) in the journal
 * with its status, error code, app, applied scenario rule and duration.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.js';
import type { Emulator } from '../../emulator.js';
import { realNow } from '../../platform/clock.js';

export function journal(emulator: Emulator): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = realNow();
    try {
      await next();
    } finally {
      // c.get, not c.var: hono builds a fresh object on every c.var read (hot path, see bench/).
      const rule = c.get('scenarioScope')?.appliedRules()[0];
      const entry = {
        id: emulator.ids.objectId(),
        time: emulator.clock.nowIso(),
        method: c.req.method,
        path: c.req.path,
        appId: c.get('appId') ?? c.req.header('appid') ?? null,
        status: c.res.status,
        errorCode: c.get('errorCode') ?? null,
        scenario: rule?.scenario ?? null,
        rule: rule?.rule ?? null,
        durationMs: Math.round((realNow() - started) * 100) / 100,
      };
      emulator.store.addJournal(entry);
      if (emulator.events.hasSubscribers()) emulator.events.emit({ type: 'request', entry });
    }
  };
}
