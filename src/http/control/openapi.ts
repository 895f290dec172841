/**
 * GET /__openapi.json: the OpenAPI document, built from the schemas on first request (the
 * module is loaded then too, so it costs nothing at start) and kept for this app.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../context.js';
import { VERSION } from '../../version.js';

export function openapiRoutes(): Hono<AppEnv> {
  let document: Promise<Record<string, unknown>> | undefined;
  return new Hono<AppEnv>().get('/', async (c) => {
    document ??= import('../../openapi/document.js').then((m) => m.buildOpenApiDocument(VERSION));
    return c.json(await document);
  });
}
