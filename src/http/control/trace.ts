/**
 * GET /__export and POST /__import: the running state as a trace file and back
 * (docs/reference.md#traces). The export streams (src/trace/write.ts); the import reads the
 * body line by line and checks all of it before the state is touched.
 */
import { Hono } from 'hono';
import { badRequest } from '../../domain/errors.js';
import { TraceExportQuerySchema, TraceImportQuerySchema } from '../../schemas/control.js';
import { applyTrace } from '../../trace/apply.js';
import { captureTrace } from '../../trace/capture.js';
import { linesOfBytes } from '../../trace/lines.js';
import { readTrace, TraceProblem } from '../../trace/read.js';
import type { Trace } from '../../trace/schema.js';
import { traceStream } from '../../trace/write.js';
import type { AppEnv } from '../context.js';
import type { Emulator } from '../../emulator.js';
import { tooLarge } from '../middleware/body-limit.js';
import { parseQuery } from '../validate.js';

/** `notification-emulator-trace[-app]-2030-01-01T00-00-00-000Z.json`: safe in a file name on any system. */
export function traceFileName(exportedAt: string, appId: string | null): string {
  const app = appId === null ? '' : `-${appId.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  return `notification-emulator-trace${app}-${exportedAt.replace(/[:.]/g, '-')}.json`;
}

export function exportRoutes(emulator: Emulator) {
  return new Hono<AppEnv>().get('/', (c) => {
    const { appId } = parseQuery(c, TraceExportQuerySchema);
    const source = captureTrace(emulator, appId);
    return new Response(traceStream(source), {
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'content-disposition': `attachment; filename="${traceFileName(source.exportedAt, source.appId)}"`,
        'cache-control': 'no-store',
      },
    });
  });
}

export function importRoutes(emulator: Emulator) {
  const limit = emulator.options.uploadLimitBytes;
  return new Hono<AppEnv>().post('/', async (c) => {
    const query = parseQuery(c, TraceImportQuerySchema);
    const body = c.req.raw.body;
    if (!body) throw badRequest('The request body must be a trace (what GET /__export answers); it is empty.');
    let trace: Trace;
    try {
      trace = await readTrace(linesOfBytes(body, limit, () => tooLarge(limit)));
    } catch (error) {
      if (!(error instanceof TraceProblem)) throw error;
      throw badRequest(`Invalid trace, nothing was changed: ${error.problems.join('; ')}.`, {
        trace: error.problems[0]!,
      });
    }
    if (query.appId !== undefined && trace.appId !== null && trace.appId !== query.appId)
      throw badRequest(`The trace holds app "${trace.appId}" only; it cannot be imported as app "${query.appId}".`, {
        appId: `the trace is of app "${trace.appId}"`,
      });
    // A trace of one app replaces that app's state, as ?appId does.
    const appId = query.appId ?? trace.appId ?? undefined;
    applyTrace(emulator, trace, appId);
    emulator.traceOrigin.current = {
      fileName: query.fileName ?? null,
      exportedAt: trace.exportedAt,
      emulatorVersion: trace.emulatorVersion,
      appId: appId ?? null,
    };
    return c.json({ imported: { ...emulator.traceOrigin.current, stats: emulator.store.stats() } });
  });
}
