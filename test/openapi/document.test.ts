/**
 * The OpenAPI document: committed and current, complete (every route of createApp() has an
 * operation, and every operation a route), served at /__openapi.json behind the admin token.
 */
import { readFileSync } from 'node:fs';
import { inspectRoutes } from 'hono/dev';
import { describe, expect, it } from 'vitest';
import { API_PREFIXES, ERROR_STATUS } from '../../src/index.js';
import { VERSION } from '../../src/version.js';
import { buildOpenApiDocument, openApiText } from '../../src/openapi/document.js';
import { call, makeTestApp } from '../helpers/app.js';
import { OPENAPI_PATH } from '../helpers/openapi.js';

/**
 * Routes that are not API operations and so need none. Keep it short: a new endpoint belongs
 * in src/openapi/ (then `npm run openapi`). The web inspector's page and assets (`/__/…`) and
 * its redirect (`/__`) serve a browser, not a client of the API.
 */
const NOT_OPERATIONS: RegExp[] = [/^\/__$/, /^\/__\//];

const doc = buildOpenApiDocument(VERSION) as any;
const METHODS = ['get', 'post', 'put', 'delete', 'patch'];

/** `METHOD /path/{param}` for each route of createApp(), the API once (its two prefixes are the two servers). */
function routeKeys(): string[] {
  const app = makeTestApp();
  const keys = new Set<string>();
  for (const route of inspectRoutes(app)) {
    if (route.isMiddleware || route.method === 'ALL') continue;
    if (NOT_OPERATIONS.some((p) => p.test(route.path))) continue;
    let path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const prefix = API_PREFIXES.find((p) => path === p || path.startsWith(`${p}/`));
    if (prefix) path = `/api${path.slice(prefix.length)}`;
    keys.add(`${route.method} ${path}`);
  }
  void app.close();
  return [...keys].sort();
}

const operationKeys = () =>
  Object.entries(doc.paths as Record<string, any>)
    .flatMap(([path, item]) =>
      Object.keys(item)
        .filter((k) => METHODS.includes(k))
        .map((m) => `${m.toUpperCase()} ${path}`),
    )
    .sort();

describe('openapi.json', () => {
  it('is committed and current (regenerate it with `npm run openapi`)', () => {
    const committed = readFileSync(OPENAPI_PATH, 'utf8');
    const current = openApiText(VERSION);
    if (committed !== current) {
      expect.fail('openapi.json is out of date with the schemas in src/: run `npm run openapi` and commit the file.');
    }
  });

  it('has an operation for every route of createApp(), and a route for every operation', () => {
    const routes = routeKeys();
    const operations = operationKeys();
    expect(
      routes.filter((r) => !operations.includes(r)),
      'routes without an operation: describe them in src/openapi/ and run `npm run openapi`',
    ).toEqual([]);
    expect(
      operations.filter((o) => !routes.includes(o)),
      'operations without a route',
    ).toEqual([]);
    expect(routes.length).toBeGreaterThan(30);
  });

  it('serves both base paths; the control plane under its own tag, on the root server only', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers.map((s: { url: string }) => s.url)).toEqual([
      'http://{host}:{port}',
      'http://{host}:{port}/v3/business-messaging',
    ]);
    expect(doc.servers[0].variables).toMatchObject({ host: { default: '127.0.0.1' }, port: { default: '4010' } });
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
    for (const [path, item] of Object.entries(doc.paths as Record<string, any>)) {
      const control = path.startsWith('/__');
      expect(path.startsWith('/api/') || control, path).toBe(true);
      for (const op of Object.values(item).filter((v: any) => v?.operationId)) {
        const o = op as any;
        expect(o.tags, path).toEqual(control ? ['Control plane'] : [expect.not.stringMatching(/^Control plane$/)]);
        expect(o.description, o.operationId).toMatch(/\S/);
        if (control) {
          expect(item.servers).toEqual([doc.servers[0]]);
          expect(o.security).toEqual([{}, { adminToken: [] }]);
        } else {
          expect(o.security).toBeUndefined(); // the document's default: appid AND apikey
          expect(Object.keys(o.responses)).toEqual(expect.arrayContaining(['401', '413', '429', '500']));
        }
      }
    }
    expect(doc.security).toEqual([{ appId: [], apiKey: [] }]);
    expect(doc.components.securitySchemes.appId).toEqual(expect.objectContaining({ in: 'header', name: 'appid' }));
    expect(doc.components.securitySchemes.apiKey).toEqual(expect.objectContaining({ in: 'header', name: 'apikey' }));
    expect(doc.components.securitySchemes.adminToken).toEqual(expect.objectContaining({ scheme: 'bearer' }));
  });

  it('names each error status with the codes of that status only', () => {
    for (const item of Object.values(doc.paths as Record<string, any>)) {
      for (const op of Object.values(item).filter((v: any) => v?.operationId)) {
        for (const [status, response] of Object.entries((op as any).responses as Record<string, any>)) {
          if (Number(status) < 400 || status === '408') continue;
          const codes: string[] =
            response.content['application/json'].schema.allOf[1].properties.error.properties.code.enum;
          expect(codes.length).toBeGreaterThan(0);
          for (const code of codes) expect(ERROR_STATUS[code as keyof typeof ERROR_STATUS], code).toBe(Number(status));
        }
      }
    }
  });

  it('describes path and query parameters, JSON bodies and the multipart upload', () => {
    const send = doc.paths['/api/notifications/send'].post;
    expect(send.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/SendNotificationRequest',
    });
    expect(doc.components.schemas.SendNotificationRequest.required).toEqual(['template', 'targets', 'mode']);
    // Free-form objects (checked by a predicate, not a copying schema) are open maps: a bare
    // `type: object` reads to client generators as an object with no keys at all.
    const openMap = { type: 'object', additionalProperties: {} };
    for (const name of ['CreateTemplateChannelRequest', 'UpdateTemplateChannelRequest']) {
      expect(doc.components.schemas[name].properties.content, name).toEqual(openMap);
    }
    const template = doc.components.schemas.SendNotificationRequest.properties.template.properties;
    for (const name of ['variables', 'notificationPushData']) {
      expect(template[name], name).toEqual({ anyOf: [openMap, { type: 'null' }] });
    }
    const upload = doc.paths['/api/campaigns/upload'].post.requestBody.content['multipart/form-data'];
    expect(doc.components.schemas[upload.schema.$ref.split('/').pop()]).toMatchObject({
      properties: { file: { type: 'string', contentMediaType: 'text/csv' }, campaignId: { type: 'string' } },
      required: ['campaignId', 'file'],
    });
    const list = doc.paths['/api/campaigns/{id}/recipients'].get;
    expect(list.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'id', in: 'path', required: true }),
        expect.objectContaining({ name: 'page', in: 'query', required: false }),
        expect.objectContaining({
          name: 'status',
          in: 'query',
          schema: expect.objectContaining({ enum: expect.any(Array) }),
        }),
      ]),
    );
    expect(list.responses['200'].headers['X-Total-Count']).toBeDefined();
    const analytics = doc.paths['/api/analytics/channels'].get.parameters;
    expect(analytics.filter((p: any) => p.required).map((p: any) => p.name)).toEqual(['from', 'to']);
  });

  it('declares every object with its keys or as an open map, never as an object of no keys', () => {
    const keyless: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (typeof node !== 'object' || node === null) return;
      const schema = node as Record<string, unknown>;
      const isObject = schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object'));
      if (isObject && !('properties' in schema) && !('additionalProperties' in schema)) keyless.push(at);
      for (const [key, value] of Object.entries(schema)) walk(value, `${at}/${key}`);
    };
    walk(doc, '#');
    expect(keyless).toEqual([]);
  });

  it('is served at /__openapi.json, behind the admin token like the rest of /__', async () => {
    const open = await call(makeTestApp(), 'GET', '/__openapi.json');
    expect(open.status).toBe(200);
    expect(open.body).toEqual(JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')));
    const guarded = makeTestApp({ adminToken: 's3cret' });
    expect((await call(guarded, 'GET', '/__openapi.json')).status).toBe(401);
    const ok = await call<{ openapi: string }>(guarded, 'GET', '/__openapi.json', undefined, {
      headers: { authorization: 'Bearer s3cret' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.openapi).toBe('3.1.0');
  });
});
