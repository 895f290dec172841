/**
 * Outermost API middleware: records every API request (refused ones too) in the journal
 * with its status, error code, app, applied scenario rule and duration.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.js';
import type { Emulator } from '../../emulator.js';
import { realNow } from '../../platform/clock.js';

export function journal(emulator: Emulator): MiddlewareHandler<AppEnv> {
  const { logger } = emulator;
  // `--log-level debug`: one line per request; decided once, so other levels pay nothing per request.
  const logRequests = logger.level === undefined || logger.level === 'debug';
  return async (c, next) => {
    const started = realNow();
    try {
      await next();
    } finally {
      // c.get, not c.var: hono builds a fresh object on every c.var read (hot path, see bench/).
      const rule = c.get('appliedRule');
      const entry = {
        id: emulator.ids.objectId(),
        time: emulator.clock.nowIso(),
        method: c.req.method,
        path: c.req.path,
        appId: c.get('app')?.appId ?? c.req.header('appid') ?? null,
        status: c.res.status,
        errorCode: c.get('errorCode') ?? null,
        scenario: rule?.scenario ?? null,
        rule: rule?.rule ?? null,
        durationMs: Math.round((realNow() - started) * 100) / 100,
      };
      emulator.store.addJournal(entry);
      if (logRequests) logger.debug(requestLine(entry));
      if (emulator.events.hasSubscribers()) emulator.events.emit({ type: 'request', entry });
    }
  };
}

/** `POST /api/notifications/send app=shop → 400 ERR_INVALID_VARIABLES (3.2 ms) [scenario flaky rule 1]` */
function requestLine(entry: {
  method: string;
  path: string;
  appId: string | null;
  status: number;
  errorCode: string | null;
  scenario: string | null;
  rule: string | null;
  durationMs: number;
}): string {
  const code = entry.errorCode ? ` ${entry.errorCode}` : '';
  const rule = entry.scenario ? ` [scenario ${entry.scenario}, ${entry.rule}]` : '';
  const app = entry.appId ?? '-';
  return `${entry.method} ${entry.path} app=${app} → ${entry.status}${code} (${entry.durationMs} ms)${rule}`;
}
