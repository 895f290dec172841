/**
 * OpenAPI operations of traces (control plane): the running state exported as one file and imported back,
 * and the request journal as HAR (docs/reference.md#traces).
 */
import { z } from 'zod';
import { AppScopeQuerySchema, HarQuerySchema, TraceImportQuerySchema } from '../schemas/control.js';
import { TraceOriginSchema } from '../schemas/responses.js';
import { TraceDocumentSchema } from '../trace/schema.js';
import type { Operation } from './operation.js';

const ImportResultSchema = z.object({
  imported: TraceOriginSchema.extend({ stats: z.record(z.string(), z.number()) }),
});

/** HAR 1.2, loosely: its own shape is the HAR specification's. */
const HarSchema = z.object({
  log: z.looseObject({
    version: z.literal('1.2'),
    creator: z.object({ name: z.string(), version: z.string() }),
    entries: z.array(z.looseObject({ startedDateTime: z.string(), time: z.number() })),
  }),
});

/** The trace file, named in components.schemas (the import's body is named Trace). */
export const traceComponents = { TraceFile: TraceDocumentSchema };

/** The trace operations: part of the control plane (its tag, its admin token). */
export const traceOperations: Operation[] = [
  {
    method: 'get',
    path: '/__export',
    operationId: 'exportTrace',
    summary: 'The whole state (or one app’s) as a trace file, streamed',
    description:
      'Records, runtime resources, clock, scenarios with counters, apps (keys masked) and the id sequence. ' +
      'Streamed one record per line; other requests keep being answered meanwhile.',
    query: AppScopeQuerySchema,
    responses: {
      200: {
        description: 'The trace.',
        schema: TraceDocumentSchema,
        headers: { 'content-disposition': 'attachment; filename="notification-emulator-trace-<instant>.json"' },
      },
    },
    errors: { 400: ['ERR_BAD_REQUEST'], 404: ['ERR_NOT_FOUND'] },
  },
  {
    method: 'post',
    path: '/__import',
    operationId: 'importTrace',
    summary: 'Replace the running state (or one app’s) with a trace',
    description:
      'The trace is checked whole first: a trace of another version, a truncated one or one that does not ' +
      'validate answers 400 and nothing changes. Its size limit is the upload limit (--upload-limit).',
    query: TraceImportQuerySchema,
    body: { schema: TraceDocumentSchema, name: 'Trace' },
    responses: { 200: { description: 'Imported.', schema: ImportResultSchema } },
    errors: { 400: ['ERR_BAD_REQUEST'], 404: ['ERR_NOT_FOUND'], 413: ['ERR_PAYLOAD_TOO_LARGE'] },
  },
  {
    method: 'get',
    path: '/__inspect/requests.har',
    operationId: 'inspectRequestsHar',
    summary: 'The request journal as HAR 1.2, filtered as /__inspect/requests is',
    description: 'Every kept entry unless `limit` says less. Opens in browser devtools and HAR viewers.',
    query: HarQuerySchema,
    responses: { 200: { description: 'The HAR document.', schema: HarSchema } },
    errors: { 400: ['ERR_BAD_REQUEST'] },
  },
];
