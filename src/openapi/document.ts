/**
 * Builds the OpenAPI 3.1 document from the operations registry (one file per resource) with
 * zod's own JSON Schema output: request shapes as the routes read them (io "input"),
 * answers as they leave (io "output", closed objects). Nothing here is written by hand
 * that a schema already says. `npm run openapi` writes it to openapi.json.
 */
import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../domain/errors.js';
import { errorEnvelopeSchema } from '../schemas/responses.js';
import { analyticsResource } from './analytics.js';
import { campaignsResource } from './campaigns.js';
import { channelsResource } from './channels.js';
import { controlResource } from './control.js';
import { notificationsResource } from './notifications.js';
import type { Operation, Resource } from './operation.js';
import { templateChannelsResource } from './template-channels.js';
import { templatesResource } from './templates.js';

/** Every resource the document describes (answer-check.ts reads the API's operations from them too). */
export const RESOURCES: readonly Resource[] = [
  notificationsResource,
  campaignsResource,
  templatesResource,
  templateChannelsResource,
  channelsResource,
  analyticsResource,
  controlResource,
];

/** Where the emulator listens: `--host` and `--port`, their defaults filled in. */
const SERVER_VARIABLES = {
  host: { default: '127.0.0.1', description: 'The address the emulator listens on (`--host`).' },
  port: { default: '4010', description: 'The port the emulator listens on (`--port`).' },
};
const SERVERS = [
  {
    url: 'http://{host}:{port}',
    description: 'The emulator, short base path (`/api/…`)',
    variables: SERVER_VARIABLES,
  },
  {
    url: 'http://{host}:{port}/v3/business-messaging',
    description: 'The emulator under the real service’s base path (`/v3/business-messaging/api/…`)',
    variables: SERVER_VARIABLES,
  },
];

/**
 * An operation without a description of its own is described by what it answers: its summary,
 * the success answers and the error codes by status (the same table its responses give).
 */
function describedByAnswers(op: Operation, responses: Record<string, { description: string }>): string {
  const answers = Object.entries(responses).map(([status, r]) =>
    Number(status) < 400 ? `${status}: ${r.description}` : `${status} ${r.description}`,
  );
  const success = answers.filter((a) => /^[123]/.test(a));
  const errors = answers.filter((a) => /^[45]/.test(a));
  return `${op.summary}. Answers ${success.join(' ')}${errors.length ? ` Errors: ${errors.join('; ')}.` : ''}`;
}

/** What every operation of a plane may answer besides its own errors (auth, limits, injected faults). */
const API_ERRORS: Partial<Record<number, ErrorCode[]>> = {
  400: ['ERR_BAD_REQUEST'],
  401: ['ERR_UNAUTHORIZED'],
  413: ['ERR_PAYLOAD_TOO_LARGE'],
  429: ['ERR_TOO_MANY_REQUESTS'],
  500: ['ERR_OPERATION_FAILED'],
};
/** 401: the admin token; 403: a Host or write Origin it refuses (http/middleware/host-origin-guard.ts). */
const CONTROL_ERRORS: Partial<Record<number, ErrorCode[]>> = { 401: ['ERR_UNAUTHORIZED'], 403: ['ERR_FORBIDDEN'] };
/** What a control operation that takes a body may answer too: the JSON body limit holds there. */
const CONTROL_BODY_ERRORS: Partial<Record<number, ErrorCode[]>> = { 413: ['ERR_PAYLOAD_TOO_LARGE'] };

type Json = Record<string, unknown>;
const ref = (id: string): Json => ({ $ref: `#/components/schemas/${id}` });

/** zod → JSON Schema (2020-12, OpenAPI 3.1's dialect), without the `$schema`/`$id` noise. */
const CONVERT = { target: 'draft-2020-12', unrepresentable: 'any' } as const;
function clean(schema: Json): Json {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
}

/** The components of one direction: every named schema, cross-referenced by `$ref`. */
function convertRegistry(entries: Map<string, z.ZodType>, io: 'input' | 'output'): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of entries) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    ...CONVERT,
    io,
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, Json> };
  return Object.fromEntries(Object.entries(schemas).map(([id, s]) => [id, clean(s)]));
}

const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function addName(names: Map<string, z.ZodType>, id: string, schema: z.ZodType): void {
  const existing = names.get(id);
  if (existing !== undefined && existing !== schema) throw new Error(`OpenAPI: two schemas named "${id}"`);
  names.set(id, schema);
}

function parameters(op: Operation): Json[] {
  const out: Json[] = [];
  for (const [where, schema] of [
    ['path', op.pathParams],
    ['query', op.query],
  ] as const) {
    if (!schema) continue;
    const json = z.toJSONSchema(schema, { ...CONVERT, io: 'input' }) as Json;
    const required = new Set((json.required as string[] | undefined) ?? []);
    for (const [name, property] of Object.entries((json.properties ?? {}) as Record<string, Json>)) {
      const { description, ...rest } = property;
      out.push({
        name,
        in: where,
        required: where === 'path' || required.has(name),
        ...(description !== undefined && { description }),
        schema: rest,
      });
    }
  }
  return out;
}

/** The error codes an operation may answer, by status: its own and those of every operation of its plane. */
export function errorsOf(op: Operation, control: boolean): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  const planeErrors = control ? [CONTROL_ERRORS, ...(op.body ? [CONTROL_BODY_ERRORS] : [])] : [API_ERRORS];
  for (const table of [...planeErrors, op.errors]) {
    for (const [status, codes] of Object.entries(table)) {
      const list = byStatus.get(Number(status)) ?? [];
      for (const code of codes ?? []) if (!list.includes(code)) list.push(code);
      byStatus.set(Number(status), list);
    }
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

/** The operation's error answers, by status, each with the codes it may carry. */
function addErrorResponses(responses: Json, op: Operation, control: boolean): void {
  for (const [status, codes] of errorsOf(op, control)) {
    if (responses[status] !== undefined) throw new Error(`OpenAPI: ${op.operationId} ${status} is both`);
    responses[status] = {
      description: codes.join(', '),
      content: {
        'application/json': {
          schema: {
            allOf: [
              ref('Error'),
              { type: 'object', properties: { error: { type: 'object', properties: { code: { enum: codes } } } } },
            ],
          },
        },
      },
    };
  }
}

/** The operation's request body (JSON or the multipart upload), its schema named among the inputs. */
function requestBodyOf(op: Operation, inputs: Map<string, z.ZodType>): Json | undefined {
  if (op.body) {
    addName(inputs, op.body.name, op.body.schema);
    return { required: op.body.optional !== true, content: { 'application/json': { schema: ref(op.body.name) } } };
  }
  if (op.multipart) {
    addName(inputs, op.multipart.name, op.multipart.schema);
    return {
      required: true,
      content: {
        'multipart/form-data': { schema: ref(op.multipart.name), encoding: { file: { contentType: 'text/csv' } } },
      },
    };
  }
  return undefined;
}

/** `version`: the package's (passed in: reading package.json here would break in the CLI bundle's chunks). */
export function buildOpenApiDocument(version: string): Json {
  const inputs = new Map<string, z.ZodType>();
  const outputs = new Map<string, z.ZodType>();
  addName(outputs, 'Error', errorEnvelopeSchema(ERROR_CODES as [ErrorCode, ...ErrorCode[]]));
  for (const resource of RESOURCES) {
    for (const [id, schema] of Object.entries(resource.components ?? {})) addName(outputs, id, schema);
  }
  const idOf = new Map<z.ZodType, string>([...outputs].map(([id, s]) => [s, id]));

  /** A response schema: a named one by reference, an array of a named one, or named after its operation. */
  const responseSchema = (op: Operation, status: number, schema: z.ZodType): Json => {
    const named = idOf.get(schema);
    if (named) return ref(named);
    if (schema instanceof z.ZodArray && idOf.has(schema.element as z.ZodType)) {
      return { type: 'array', items: ref(idOf.get(schema.element as z.ZodType)!) };
    }
    const id = `${pascal(op.operationId)}${status}Response`;
    addName(outputs, id, schema);
    idOf.set(schema, id);
    return ref(id);
  };

  const paths: Record<string, Json> = {};
  for (const resource of RESOURCES) {
    const control = resource.control === true;
    for (const op of resource.operations) {
      const responses: Json = {};
      for (const [status, response] of Object.entries(op.responses)) {
        const contentType = response.contentType ?? 'application/json';
        responses[status] = {
          description: response.description,
          ...(response.headers && {
            headers: Object.fromEntries(
              Object.entries(response.headers).map(([name, description]) => [
                name,
                { description, schema: { type: 'string' } },
              ]),
            ),
          }),
          content: {
            [contentType]: {
              schema: response.schema ? responseSchema(op, Number(status), response.schema) : { type: 'string' },
            },
          },
        };
      }
      addErrorResponses(responses, op, control);
      const requestBody = requestBodyOf(op, inputs);
      const params = parameters(op);
      const item = (paths[op.path] ??= control ? { servers: [SERVERS[0]] } : {});
      if (item[op.method] !== undefined) throw new Error(`OpenAPI: ${op.method} ${op.path} is described twice`);
      item[op.method] = {
        tags: [resource.tag.name],
        operationId: op.operationId,
        summary: op.summary,
        description: op.description ?? describedByAnswers(op, responses as Record<string, { description: string }>),
        ...(params.length > 0 && { parameters: params }),
        ...(requestBody && { requestBody }),
        responses,
        ...(control && { security: [{}, { adminToken: [] }] }),
      };
    }
  }

  const inputSchemas = convertRegistry(inputs, 'input');
  const outputSchemas = convertRegistry(outputs, 'output');
  for (const id of Object.keys(inputSchemas)) {
    if (id in outputSchemas) throw new Error(`OpenAPI: "${id}" names a request and a response schema`);
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'notification-emulator',
      version,
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'The emulated business-messaging notification and campaign API (`/api/…`, under either server) and the ' +
        'emulator’s control plane (`/__…`). Every error answers with the envelope ' +
        '`{ "error": { code, message, devMessage, details? } }`; each operation lists its codes by status. A fault ' +
        'scenario may make any API operation answer any code of the table (or a scripted raw answer).',
    },
    servers: SERVERS,
    security: [{ appId: [], apiKey: [] }],
    tags: RESOURCES.map((r) => r.tag),
    paths,
    components: {
      securitySchemes: {
        appId: { type: 'apiKey', in: 'header', name: 'appid', description: 'The app ID.' },
        apiKey: { type: 'apiKey', in: 'header', name: 'apikey', description: 'The API key of that app.' },
        adminToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'The control plane’s admin token, when the emulator runs with one (`--admin-token`).',
        },
      },
      schemas: { ...outputSchemas, ...inputSchemas },
    },
  };
}

/** The committed openapi.json's text (`npm run openapi` writes it; a test compares). */
export const openApiText = (version: string): string => `${JSON.stringify(buildOpenApiDocument(version), null, 2)}\n`;
