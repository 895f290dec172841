/**
 * GET /__export and POST /__import: the running state as a trace file and back
 * (docs/traces.md). The export streams (src/trace/write.ts); the import reads the body line
 * by line and checks all of it before the state is touched.
 */
import { Hono } from 'hono';
import { payloadTooLarge, traceInvalid, traceMissing, traceOfOtherApp } from '../../domain/error-messages.js';
import { TraceImportQuerySchema } from '../../schemas/control.js';
import { linesOfBytes } from '../../trace/lines.js';
import { readTrace, TraceProblem } from '../../trace/read.js';
import type { Trace } from '../../trace/schema.js';
import { traceStream } from '../../trace/write.js';
import type { AppEnv } from '../context.js';
import type { ControlParts } from '../wiring.js';
import { parseQuery } from '../validate.js';
import { appScope, requireKnownApp } from './app-scope.js';

/** `notification-emulator-trace[-app]-2030-01-01T00-00-00-000Z.json`: safe in a file name on any system. */
export function traceFileName(exportedAt: string, appId: string | null): string {
  const app = appId === null ? '' : `-${appId.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  return `notification-emulator-trace${app}-${exportedAt.replace(/[:.]/g, '-')}.json`;
}

export function exportRoutes({ apps, traces }: Pick<ControlParts, 'apps' | 'traces'>) {
  return new Hono<AppEnv>().get('/', (c) => {
    const appId = appScope(c, apps, { write: false });
    const source = traces.capture(appId);
    return new Response(traceStream(source), {
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'content-disposition': `attachment; filename="${traceFileName(source.exportedAt, source.appId)}"`,
        'cache-control': 'no-store',
      },
    });
  });
}

/** The body as a checked trace; a bad one is a 400 naming what is wrong, and nothing changed. */
async function readBodyTrace(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Trace> {
  if (!body) throw traceMissing();
  try {
    return await readTrace(linesOfBytes(body, limit, () => payloadTooLarge(limit)));
  } catch (error) {
    if (error instanceof TraceProblem) throw traceInvalid(error.problems);
    throw error;
  }
}

export function importRoutes({
  apps,
  traces,
  records,
  options,
}: Pick<ControlParts, 'apps' | 'traces' | 'records' | 'options'>) {
  const limit = options.uploadLimitBytes;
  return new Hono<AppEnv>().post('/', async (c) => {
    const query = parseQuery(c, TraceImportQuerySchema, { emptyIsError: ['appId'] });
    if (query.appId !== undefined) requireKnownApp(apps, query.appId, false);
    const trace = await readBodyTrace(c.req.raw.body, limit);
    if (query.appId !== undefined && trace.appId !== null && trace.appId !== query.appId)
      throw traceOfOtherApp(trace.appId, query.appId);
    // A trace of one app replaces that app's state, as ?appId does.
    const appId = query.appId ?? trace.appId ?? undefined;
    if (appId !== undefined) requireKnownApp(apps, appId, false);
    const origin = traces.apply(trace, appId, query.fileName ?? null);
    return c.json({ imported: { ...origin, stats: records.stats() } });
  });
}
