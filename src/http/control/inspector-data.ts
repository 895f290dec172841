/**
 * Control endpoints the web inspector needs beyond the inspect lists, public like the rest:
 * GET /__apps (apps this emulator knows), GET /__apps/{appId}/templates (templates visible to
 * an app with its channels and a preview rendered from generated sample values),
 * GET /__inspect/deliveries/{id} (one delivery) and GET /__inspect/delivery-stats (counts per
 * time bucket and status, default: per minute over the last hour of the emulator clock).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { ApiError, badRequest } from '../../domain/errors.js';
import { renderContent } from '../../domain/variables.js';
import { rowContentByType } from '../../domain/template-channels.js';
import {
  AppTemplatesQuerySchema,
  DeliveryStatsQuerySchema,
  MAX_STATS_BUCKETS,
  type AppList,
  type DeliveryStats,
} from '../../schemas/control-inspector.js';
import { toTemplateView, type AppTemplates, type TemplateSample } from '../../domain/template-view.js';
import type { AppEnv } from '../context.js';
import type { Emulator } from '../../emulator.js';
import { parseQuery } from '../validate.js';

const notFound = (what: string, hint: string) =>
  new ApiError('ERR_NOT_FOUND', `${what} ${hint}`, { message: 'The requested resource was not found.' });

export function appRoutes({
  apps,
  templates,
  store,
  channels,
}: Pick<Emulator, 'apps' | 'templates' | 'store' | 'channels'>) {
  return new Hono<AppEnv>()
    .get('/', (c) => {
      parseQuery(c, z.object({}));
      const ids = new Set(apps.list().map((a) => a.appId));
      for (const t of templates.list()) if (t.appId !== null) ids.add(t.appId);
      const region = new Map(apps.list().map((a) => [a.appId, a.region]));
      const items = [...ids].sort().map((appId) => ({
        appId,
        region: region.get(appId) ?? null,
        configured: apps.mode === 'strict' && region.has(appId),
        templates: templates.list(appId).length,
      }));
      return c.json({ mode: apps.mode, items } satisfies AppList);
    })
    .get('/:appId/templates', async (c) => {
      const { seed } = parseQuery(c, AppTemplatesQuerySchema);
      const appId = c.req.param('appId');
      if (apps.mode === 'strict' && !apps.list().some((a) => a.appId === appId)) {
        throw notFound(`No app "${appId}" is configured;`, 'GET /__apps lists the apps.');
      }
      // Loaded on use: faker is large and only this endpoint and generate-csv need it.
      const { sampleVariables } = await import('../../platform/fake-data.js');
      const items = templates.list(appId).map((template): TemplateSample => {
        const variables = sampleVariables(template, seed ?? 1);
        // As a send renders it: template-channel rows replace the template's content of their channel type.
        const rows = rowContentByType(store, channels, appId, template);
        const content = rows.size ? { ...template.content, ...Object.fromEntries(rows) } : template.content;
        return {
          ...toTemplateView(channels, appId, template),
          variableList: template.variableSchema,
          sample: { variables, rendered: renderContent(content, variables) as Record<string, unknown> },
        };
      });
      return c.json({ appId, authMode: apps.mode, channels: channels.list(appId), items } satisfies AppTemplates);
    });
}

export function deliveryDetailRoutes({ store }: Pick<Emulator, 'store'>) {
  return new Hono<AppEnv>().get('/:id', (c) => {
    const id = c.req.param('id');
    const delivery = store.getDelivery(id);
    if (!delivery) throw notFound(`No delivery "${id}" is stored`, '(unknown id, cleared, or dropped by the cap).');
    return c.json(delivery);
  });
}

export function deliveryStatsRoutes({ store, clock }: Pick<Emulator, 'store' | 'clock'>) {
  return new Hono<AppEnv>().get('/', (c) => {
    const { since, until, bucketMs: givenBucket, ...filter } = parseQuery(c, DeliveryStatsQuerySchema);
    const bucketMs = givenBucket ?? 60_000;
    const end = until ?? clock.now();
    const start = since ?? end - 3_600_000 + 1;
    if (start > end) throw badRequest('"since" must not be after "until".', { since: 'must not be after until' });
    const first = start - (start % bucketMs);
    const count = Math.floor((end - first) / bucketMs) + 1;
    if (count > MAX_STATS_BUCKETS) {
      throw badRequest(`The range holds ${count} buckets; at most ${MAX_STATS_BUCKETS}: widen bucketMs or narrow it.`, {
        bucketMs: `gives ${count} buckets (max ${MAX_STATS_BUCKETS})`,
      });
    }
    const counted = new Map(
      store.countDeliveriesByTime({ ...filter, since: start, until: end }, bucketMs).map((b) => [b.start, b]),
    );
    const buckets = Array.from({ length: count }, (_, i) => {
      const at = first + i * bucketMs;
      const b = counted.get(at);
      return { start: new Date(at).toISOString(), sent: b?.sent ?? 0, failed: b?.failed ?? 0 };
    });
    const totals = buckets.reduce((t, b) => ({ sent: t.sent + b.sent, failed: t.failed + b.failed }), {
      sent: 0,
      failed: 0,
    });
    return c.json({
      since: new Date(start).toISOString(),
      until: new Date(end).toISOString(),
      bucketMs,
      totals,
      buckets,
    } satisfies DeliveryStats);
  });
}
