/**
 * What the OpenAPI document is generated from: one Operation per route, listing the zod
 * schemas the route validates with and the schemas of what it answers. Each resource has
 * its own file here; document.ts turns them all into OpenAPI 3.1.
 */
import type { z } from 'zod';
import type { ErrorCode } from '../domain/errors.js';

type Method = 'get' | 'post' | 'put' | 'delete';

interface SuccessResponse {
  description: string;
  /** The JSON body; absent for a body that is not JSON (`contentType`). */
  schema?: z.ZodType;
  /** Defaults to application/json. */
  contentType?: string;
  /** Response headers: name → description (string values). */
  headers?: Record<string, string>;
}

export interface Operation {
  method: Method;
  /** OpenAPI path template: `/api/campaigns/{id}`, `/__clock`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  /** Path parameters: each property a string parameter, described with `.describe()`. */
  pathParams?: z.ZodObject;
  /** The query schema the route parses `c.req.query()` with (an object, possibly piped into a transform). */
  query?: z.ZodType;
  /** The JSON body schema the route validates with; `optional` when an empty body is accepted. */
  body?: { schema: z.ZodType; name: string; optional?: boolean };
  /** A multipart/form-data body instead of JSON. */
  multipart?: { schema: z.ZodType; name: string };
  /** Success answers by status. */
  responses: Record<number, SuccessResponse>;
  /** Error codes by status this operation can answer (besides those every operation of its plane can). */
  errors: Partial<Record<number, ErrorCode[]>>;
}

/** Named schemas for components.schemas: id → schema. */
type Components = Record<string, z.ZodType>;

export interface Resource {
  tag: { name: string; description: string };
  /** True for /__ routes: no appid/apikey, the admin bearer token instead, one server. */
  control?: boolean;
  operations: Operation[];
  /** Response schemas to name in components.schemas (request bodies are named in `body`). */
  components?: Components;
}
