/**
 * docs/reference.md calls itself the whole contract, so it names every route the emulator
 * answers and every query parameter of the inspect endpoints. The routes come from the route
 * snapshot (test/http/routes.test.ts), read at test time: a route added there must be written
 * into the reference too.
 */
import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { describe, expect, it } from 'vitest';
import {
  ClearQuerySchema,
  DeliveryQuerySchema,
  InspectCampaignsQuerySchema,
  InspectRecipientsQuerySchema,
  JournalQuerySchema,
  NotificationQuerySchema,
  StreamQuerySchema,
} from '../../src/schemas/control.js';
import { AppTemplatesQuerySchema, DeliveryStatsQuerySchema } from '../../src/schemas/control-inspector.js';

const reference = readFileSync('docs/reference.md', 'utf8');
const SNAPSHOT = 'test/http/__snapshots__/routes.test.ts.snap';
const API_PREFIX = '/v3/business-messaging';
const METHOD = 'GET|POST|PUT|PATCH|DELETE|HEAD';

/** `/api/campaigns/:id` and `/api/campaigns/{id}` alike; without the production prefix (both prefixes: one route). */
const normalised = (path: string) =>
  path
    .replace(new RegExp(`^${API_PREFIX}(?=/api/)`), '')
    .replace(/:\w+|\{[^}]*\}/g, '{}')
    .replace(/(.)\.$/, '$1'); // a sentence's full stop, not a file's extension

/** Every `METHOD /path` of the snapshot. */
function snapshotRoutes(): string[] {
  const lines = [...readFileSync(SNAPSHOT, 'utf8').matchAll(new RegExp(`^\\s*"(${METHOD})\\s+(/[^"]*)",$`, 'gm'))];
  return [...new Set(lines.map(([, method, path]) => `${method} ${normalised(path!)}`))];
}

/** Every route the reference writes as `METHOD /path`, or with methods sharing a path: `GET`/`PUT /path`. */
function documentedRoutes(markdown: string): Set<string> {
  const routes = new Set<string>();
  const mention = new RegExp(`((?:(?:${METHOD})\`?/\`?)*)(${METHOD}) (/[^\\s\`'"?,;:)|]*)`, 'g');
  for (const [, shared, method, path] of markdown.matchAll(mention)) {
    for (const m of [...(shared!.match(new RegExp(METHOD, 'g')) ?? []), method!])
      routes.add(`${m} ${normalised(path!)}`);
  }
  return routes;
}

/** The rows of the reference's tables whose first cell is this route (`GET /path`, `GET /path?…`). */
function rowsOf(route: string): string {
  const rows = reference
    .split('\n')
    .filter((line) => line.startsWith(`| \`${route}\``) || line.startsWith(`| \`${route}?`));
  expect(rows, `docs/reference.md has no table row for ${route}`).not.toEqual([]);
  return rows.join('\n');
}

/** Each query schema of the control plane, and the route whose table row must name its parameters. */
const QUERIES: [route: string, schema: z.ZodObject][] = [
  ['GET /__inspect/deliveries', DeliveryQuerySchema],
  ['GET /__inspect/notifications', NotificationQuerySchema],
  ['GET /__inspect/requests', JournalQuerySchema],
  ['GET /__inspect/campaigns', InspectCampaignsQuerySchema],
  ['GET /__inspect/campaigns/{id}/recipients', InspectRecipientsQuerySchema],
  ['GET /__inspect/delivery-stats', DeliveryStatsQuerySchema],
  ['GET /__inspect/stream', StreamQuerySchema],
  ['DELETE /__inspect', ClearQuerySchema],
  ['GET /__apps/{appId}/templates', AppTemplatesQuerySchema],
];

describe('docs/reference.md', () => {
  it('reads routes the way they are written: one method, shared methods, path parameters, both prefixes', () => {
    const found = documentedRoutes(
      'Use `GET /api/x/{id}`. Then `GET`/`PUT`/`DELETE /__y/{name}/z.` and `POST /__openapi.json`, not GET /__w?q=1.',
    );
    expect([...found].sort()).toEqual([
      'DELETE /__y/{}/z',
      'GET /__w',
      'GET /__y/{}/z',
      'GET /api/x/{}',
      'POST /__openapi.json',
      'PUT /__y/{}/z',
    ]);
    expect(normalised('/v3/business-messaging/api/template-channels/:templateId/:channelId')).toBe(
      '/api/template-channels/{}/{}',
    );
  });

  it('names every route of the route snapshot, with its method', () => {
    const routes = snapshotRoutes();
    expect(routes.length).toBeGreaterThan(40);
    const documented = documentedRoutes(reference);
    expect(routes.filter((route) => !documented.has(route))).toEqual([]);
  });

  for (const [route, schema] of QUERIES) {
    it(`names every query parameter of ${route} in its table row`, () => {
      const row = rowsOf(route);
      const parameters = Object.keys(schema.shape);
      expect(parameters.length).toBeGreaterThan(0);
      expect(parameters.filter((name) => !new RegExp(`\\b${name}\\b`).test(row))).toEqual([]);
    });
  }
});
