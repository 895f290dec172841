/**
 * The CSV upload's streaming (docs/reference.md#upload-recipients-csv): a multipart/form-data
 * body with a `file` part and a `campaignId` field (each missing or repeated one is named).
 * The CSV is parsed while the body streams in, yielding to the event loop between pieces:
 * when the campaignId field comes first (curl and browsers send fields in the order given),
 * the file is read as it arrives; otherwise it is kept as received and read once the field is
 * known. Nothing is stored before the whole file is accepted. The route only calls uploadCsv.
 */
import type { Context } from 'hono';
import { Buffer } from 'node:buffer';
import { badRequest } from '../domain/errors.js';
import { payloadTooLarge } from '../domain/error-messages.js';
import type { UploadResult, UploadSession } from '../domain/campaign-recipients.js';
import type { CampaignService } from '../domain/campaigns.js';
import { UploadFormSchema } from '../schemas/campaigns.js';
import type { AppEnv } from './context.js';
import { MultipartError, readMultipart, type PartConsumer } from './multipart.js';
import { requestHeader } from './plain-headers.js';
import { GIVEN_TWICE, parseWith } from './validate.js';

/** Body bytes handed to the parser per step: a few milliseconds of CSV work. */
const PIECE_BYTES = 64 * 1024;
/** Work between two yields to the event loop, so other requests are answered during an upload. */
const TURN_BUDGET_MS = 10;
/** What the journal keeps of a body (64 KiB); one byte more tells it the body was longer. */
const JOURNAL_PREFIX_BYTES = 64 * 1024 + 1;
/** Stands for the file part in the form check: its bytes are streamed into the session, not kept. */
const FILE_RECEIVED = new Uint8Array(0);

type Yielder = () => Promise<void> | undefined;

/** Resolves on a later turn of the event loop once this turn has worked for TURN_BUDGET_MS. */
function createYielder(): Yielder {
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

const malformed = (error: unknown) =>
  badRequest(`The multipart body could not be read: ${(error as Error).message}`, {
    body: 'malformed multipart/form-data',
  });

function requireMultipart(type: string): void {
  if (/^multipart\/form-data\b/i.test(type.trim())) return;
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

/**
 * The form's parts as they arrive: the campaignId field, and the file fed to its upload
 * session (or held until the field comes).
 */
class UploadForm {
  campaignId: string | null = null;
  fileSeen = false;
  private campaignIdSeen = false;
  /**
   * Fields sent more than once: refused, as a query parameter given twice is (validate.ts).
   * Neither part can win: the first file may already be read into a session for the first
   * campaignId, and a second file is not told from the first by intent.
   */
  readonly repeated = new Set<string>();
  /** File pieces received before the campaignId field. */
  private held: Uint8Array[] = [];
  private session: UploadSession | null = null;
  /** Why the upload cannot go on (unknown campaign, not a draft…): answered once the body is read. */
  private refusal: unknown = null;

  constructor(
    private readonly campaigns: CampaignService,
    private readonly appId: string,
  ) {}

  readonly onPart = (name: string, filename: string | null): PartConsumer | null => {
    // A campaignId sent as a file part is not the field (as with FormData).
    if (name === 'campaignId' && filename === null) return this.campaignIdPart();
    if (name !== 'file') return null;
    if (this.fileSeen) return this.repeat(name);
    this.fileSeen = true;
    if (this.campaignId !== null && this.campaignId !== '') {
      this.start();
      return this.feed;
    }
    return (data) => void this.held.push(data);
  };

  /** Starts the session now if the file came before the field, feeds it what was held, and finishes it. */
  async finish(yieldIfDue: Yielder): Promise<UploadResult> {
    if (this.session === null && this.refusal === null) {
      this.start();
      for (const piece of this.held) {
        for (const slice of slices(piece)) {
          this.feed(slice);
          await yieldIfDue();
        }
      }
      this.held = [];
    }
    if (this.refusal !== null) throw this.refusal;
    return this.session!.finish();
  }

  private campaignIdPart(): PartConsumer | null {
    if (this.campaignIdSeen) return this.repeat('campaignId');
    this.campaignIdSeen = true;
    const pieces: Uint8Array[] = [];
    return (data) => {
      pieces.push(Uint8Array.from(data));
      this.campaignId = new TextDecoder().decode(Buffer.concat(pieces)).trim();
    };
  }

  private repeat(name: string): null {
    this.repeated.add(name);
    return null;
  }

  private start(): void {
    try {
      this.session = this.campaigns.startUpload(this.appId, this.campaignId as string);
    } catch (error) {
      this.refusal = error;
    }
  }

  private readonly feed = (piece: Uint8Array): void => {
    if (this.refusal !== null) return;
    try {
      this.session!.write(piece);
    } catch (error) {
      this.refusal = error;
    }
  };
}

/** The body's pieces, yielding to the event loop after each once this turn's budget is spent. */
async function* yielding(body: AsyncIterable<Uint8Array>, yieldIfDue: Yielder): AsyncGenerator<Uint8Array> {
  for await (const piece of body) {
    yield piece;
    await yieldIfDue();
  }
}

/** Reads the whole body through the multipart reader; a framing error is answered once the rest is read and dropped. */
async function readParts(type: string, form: UploadForm, body: AsyncIterable<Uint8Array>): Promise<void> {
  try {
    await readMultipart(type, body, form.onPart);
  } catch (error) {
    if (error instanceof MultipartError) throw malformed(error);
    throw error;
  }
}

function refuseRepeated(repeated: ReadonlySet<string>): void {
  if (repeated.size === 0) return;
  const names = [...repeated];
  throw badRequest(
    `Invalid upload form: ${names.map((name) => `${name}: ${GIVEN_TWICE}`).join('; ')}. Send one.`,
    Object.fromEntries(names.map((name) => [name, GIVEN_TWICE])),
  );
}

/** `limit`: the upload's size limit, counted as the body streams in. */
export async function uploadCsv(c: Context<AppEnv>, campaigns: CampaignService, limit: number): Promise<UploadResult> {
  const type = requestHeader(c, 'content-type') ?? '';
  requireMultipart(type);
  const form = new UploadForm(campaigns, c.get('appId'));
  const yieldIfDue = createYielder();
  await readParts(type, form, yielding(uploadBody(c, limit), yieldIfDue));
  refuseRepeated(form.repeated);
  // The form's fields against its schema. The file went (or goes) straight into the upload
  // session rather than being held, so what stands for it here is only whether it came.
  parseWith(
    UploadFormSchema,
    { campaignId: form.campaignId ?? undefined, file: form.fileSeen ? FILE_RECEIVED : undefined },
    'upload form',
  );
  return form.finish(yieldIfDue);
}
