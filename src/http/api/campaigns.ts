/**
 * Campaign routes of the emulated API (docs/reference.md#campaigns), including the multipart CSV
 * upload. Lists answer bare JSON arrays like the real docs, with the total in X-Total-Count.
 */
import { Hono, type Context } from 'hono';
import type { z } from 'zod';
import { Buffer } from 'node:buffer';
import { badRequest } from '../../domain/errors.js';
import type { UploadResult, UploadSession } from '../../domain/campaign-recipients.js';
import {
  AddRecipientsBodySchema,
  CreateCampaignBodySchema,
  ListCampaignsQuerySchema,
  ListRecipientsQuerySchema,
  SendCampaignBodySchema,
  UpdateCampaignBodySchema,
  UploadFormSchema,
} from '../../schemas/campaigns.js';
import type { CampaignService } from '../../domain/campaigns.js';
import type { AppEnv } from '../context.js';
import { answer, answerPage } from '../answer.js';
import { createMultipartReader, type MultipartReader, type PartConsumer } from '../multipart.js';
import { GIVEN_TWICE, parseWith, readJsonBody } from '../validate.js';
import { requestHeader } from '../plain-headers.js';
import { payloadTooLarge } from '../../domain/error-messages.js';

/** The send body may be `{}` or absent altogether (both mean "send now"). */
async function readOptionalJson<S extends z.ZodType>(c: Context<AppEnv>, schema: S): Promise<z.infer<S>> {
  const text = await c.req.text();
  return text.trim() === '' ? parseWith(schema, {}, 'request body') : readJsonBody(c, schema);
}

/** Body bytes handed to the parser per step: a few milliseconds of CSV work. */
const PIECE_BYTES = 64 * 1024;
/** Work between two yields to the event loop, so other requests are answered during an upload. */
const TURN_BUDGET_MS = 10;

/** Resolves on a later turn of the event loop once this turn has worked for TURN_BUDGET_MS. */
function createYielder(): () => Promise<void> | undefined {
  let turnStarted = performance.now();
  return () => {
    if (performance.now() - turnStarted < TURN_BUDGET_MS) return undefined;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        turnStarted = performance.now();
        resolve();
      }),
    );
  };
}

/** The body in pieces: as it streams in, or the bytes a scenario's body matcher already read (within the limit). */
function uploadBody(c: Context<AppEnv>, limit: number): AsyncIterable<Uint8Array> {
  const read = c.get('requestBody');
  if (read === undefined || !('bytes' in read)) return bodyPieces(c, limit);
  const { bytes } = read;
  return (async function* () {
    yield* slices(bytes);
  })();
}

/** What the journal keeps of a body (64 KiB); one byte more tells it the body was longer. */
const JOURNAL_PREFIX_BYTES = 64 * 1024 + 1;

/**
 * The body as it arrives, in pieces of at most PIECE_BYTES (an in-process request may hold it
 * whole). Its first bytes are kept on the context (`requestBody`) for the journal, which keeps
 * the start of every request body.
 */
async function* bodyPieces(c: Context<AppEnv>, limit: number): AsyncGenerator<Uint8Array> {
  const body = c.req.raw.body;
  if (!body) return;
  const prefix = new Uint8Array(JOURNAL_PREFIX_BYTES);
  let kept = 0;
  let size = 0;
  try {
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (kept < prefix.length) {
        const take = chunk.subarray(0, prefix.length - kept);
        prefix.set(take, kept);
        kept += take.length;
      }
      if (size > limit) throw payloadTooLarge(limit);
      yield* slices(chunk);
    }
  } finally {
    c.set('requestBody', { bytes: prefix.slice(0, kept) });
  }
}

function* slices(bytes: Uint8Array): Generator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += PIECE_BYTES) yield bytes.subarray(at, at + PIECE_BYTES);
}

/** Stands for the file part in the form check: its bytes are streamed into the session, not kept. */
const FILE_RECEIVED = new Uint8Array(0);

const malformed = (error: unknown) =>
  badRequest(`The multipart body could not be read: ${(error as Error).message}`, {
    body: 'malformed multipart/form-data',
  });

/**
 * docs/reference.md#upload-recipients-csv: multipart/form-data with a `file` part and a `campaignId` field (each
 * missing or repeated one is named). The CSV is parsed while the body streams in, yielding to the event
 * loop between pieces: when the campaignId field comes first (curl and browsers send fields
 * in the order given), the file is read as it arrives; otherwise it is kept as received
 * and read once the field is known. Nothing is stored before the whole file is accepted.
 */
async function uploadCsv(c: Context<AppEnv>, campaigns: CampaignService, limit: number): Promise<UploadResult> {
  const type = requestHeader(c, 'content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(type.trim())) {
    throw badRequest(
      `The upload must be multipart/form-data with a "file" part and a "campaignId" field (got Content-Type ` +
        `"${type || 'none'}"), e.g. curl -F file=@recipients.csv -F campaignId=<id>.`,
      {
        'content-type': 'must be multipart/form-data',
        file: 'is required (the CSV file)',
        campaignId: 'is required',
      },
    );
  }
  const appId = c.get('appId');
  let campaignId: string | null = null;
  let campaignIdSeen = false;
  let fileSeen = false;
  /**
   * Fields sent more than once: refused, as a query parameter given twice is (validate.ts).
   * Neither part can win: the first file may already be read into a session for the first
   * campaignId, and a second file is not told from the first by intent.
   */
  const repeated = new Set<string>();
  /** File pieces received before the campaignId field. */
  let held: Uint8Array[] = [];
  let session: UploadSession | null = null;
  /** Why the upload cannot go on (unknown campaign, not a draft…): answered once the body is read. */
  let refusal: unknown = null;

  const start = () => {
    try {
      session = campaigns.startUpload(appId, campaignId as string);
    } catch (error) {
      refusal = error;
    }
  };
  const feed = (piece: Uint8Array) => {
    if (refusal !== null) return;
    try {
      session!.write(piece);
    } catch (error) {
      refusal = error;
    }
  };

  const onPart = (name: string, filename: string | null): PartConsumer | null => {
    if (name === 'campaignId' && filename === null) {
      // A campaignId sent as a file part is not the field (as with FormData).
      if (campaignIdSeen) {
        repeated.add(name);
        return null;
      }
      campaignIdSeen = true;
      const pieces: Uint8Array[] = [];
      return (data) => {
        pieces.push(Uint8Array.from(data));
        campaignId = new TextDecoder().decode(Buffer.concat(pieces)).trim();
      };
    }
    if (name !== 'file') return null;
    if (fileSeen) {
      repeated.add(name);
      return null;
    }
    fileSeen = true;
    if (campaignId !== null && campaignId !== '') {
      start();
      return feed;
    }
    return (data) => void held.push(data);
  };

  let reader: MultipartReader;
  try {
    reader = createMultipartReader(type, onPart);
  } catch (error) {
    throw malformed(error);
  }
  const yieldIfDue = createYielder();
  let framing: unknown = null;
  for await (const piece of uploadBody(c, limit)) {
    if (framing === null) {
      try {
        reader.write(piece);
      } catch (error) {
        framing = error; // the rest of the body is read and dropped
      }
    }
    await yieldIfDue();
  }
  if (framing === null) {
    try {
      reader.end();
    } catch (error) {
      framing = error;
    }
  }
  if (framing !== null) throw malformed(framing);
  if (repeated.size > 0) {
    const names = [...repeated];
    throw badRequest(
      `Invalid upload form: ${names.map((name) => `${name}: ${GIVEN_TWICE}`).join('; ')}. Send one.`,
      Object.fromEntries(names.map((name) => [name, GIVEN_TWICE])),
    );
  }

  // The form's fields against its schema. The file went (or goes) straight into the upload
  // session rather than being held, so what stands for it here is only whether it came.
  parseWith(
    UploadFormSchema,
    { campaignId: campaignId ?? undefined, file: fileSeen ? FILE_RECEIVED : undefined },
    'upload form',
  );
  if (session === null && refusal === null) {
    start();
    for (const piece of held) {
      for (const slice of slices(piece)) {
        feed(slice);
        await yieldIfDue();
      }
    }
    held = [];
  }
  if (refusal !== null) throw refusal;
  return (session as UploadSession | null)!.finish();
}

/** `uploadLimitBytes`: the upload's size limit, counted as the body streams in. */
export function campaignRoutes({
  campaigns,
  uploadLimitBytes,
}: {
  campaigns: CampaignService;
  uploadLimitBytes: number;
}) {
  return new Hono<AppEnv>()
    .post('/campaigns/upload', async (c) => answer(c, await uploadCsv(c, campaigns, uploadLimitBytes), 200))
    .post('/campaigns', async (c) => {
      const body = await readJsonBody(c, CreateCampaignBodySchema);
      return answer(c, campaigns.create(c.get('appId'), body), 200);
    })
    .get('/campaigns', (c) => {
      const { status, page } = parseWith(ListCampaignsQuerySchema, c.req.query(), 'query');
      return answerPage(c, campaigns.list(c.get('appId'), { status }, page));
    })
    .get('/campaigns/:id', (c) => answer(c, campaigns.get(c.get('appId'), c.req.param('id')), 200))
    .put('/campaigns/:id', async (c) => {
      const body = await readJsonBody(c, UpdateCampaignBodySchema);
      return answer(c, campaigns.update(c.get('appId'), c.req.param('id'), body), 200);
    })
    .post('/campaigns/:id/recipients', async (c) => {
      const { userIds } = await readJsonBody(c, AddRecipientsBodySchema);
      return answer(c, campaigns.addRecipients(c.get('appId'), c.req.param('id'), userIds), 200);
    })
    .get('/campaigns/:id/recipients', (c) => {
      const { status, page } = parseWith(ListRecipientsQuerySchema, c.req.query(), 'query');
      return answerPage(c, campaigns.listRecipients(c.get('appId'), c.req.param('id'), { status }, page));
    })
    .post('/campaigns/:id/send', async (c) => {
      const body = await readOptionalJson(c, SendCampaignBodySchema);
      return answer(
        c,
        campaigns.send(c.get('appId'), c.req.param('id'), body, c.get('scenarioScope').deliveryFaults),
        200,
      );
    });
}
