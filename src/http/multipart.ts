/**
 * The one multipart/form-data reader (RFC 7578), for the CSV upload and for the scenario
 * engine's form fields: @fastify/busboy parses the body as it arrives, and each part's bytes go
 * to a consumer in order as they stream in, so a 100 MB file is never held whole. The parts are
 * handed over one after the other (a part's consumer has all its bytes before the next part is
 * announced), and a consumer that falls behind holds the body back (busboy's backpressure).
 */
import { Busboy, type BusboyFileStream, type BusboyInstance } from '@fastify/busboy';
import { Buffer } from 'node:buffer';

/** Thrown for a body that does not follow its multipart Content-Type. */
export class MultipartError extends Error {}

/**
 * Receives a part's bytes in order (views: copy what must outlive the call); a promise it
 * answers holds the body back until it settles.
 */
export type PartConsumer = (data: Uint8Array) => void | Promise<void>;
/** Called as each part starts; answers the consumer of its bytes, or null to skip them. */
export type PartHandler = (name: string, filename: string | null) => PartConsumer | null;

/** Part headers past this are cut (busboy's `headerSize`) rather than buffered without end. */
const MAX_HEADER_BYTES = 16 * 1024;
/** A file stream buffers up to one of the upload's pieces before busboy waits for its consumer. */
const PART_BUFFER_BYTES = 64 * 1024;
/** Busboy only ever fails once the body is over, and always because the body stopped short. */
const ENDS_EARLY = 'the body ends before the closing boundary';

/**
 * The boundary parameter must be 1 to 70 characters (RFC 2046): busboy itself takes an empty
 * or overlong one, and a missing one would get its own wording.
 */
function requireBoundary(contentType: string): void {
  const match = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^\s;"]+))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary || boundary.length > 70) throw new MultipartError('the Content-Type has no usable boundary parameter');
}

/** Browsers send `"`, CR and LF in a field name %-escaped (the HTML form encoding); busboy leaves them as sent. */
const decodeName = (name: string): string => name.replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n');

/**
 * Reads `body` through busboy, each part's bytes to the consumer `onPart` gives it. Resolves once
 * the closing delimiter is read and every consumer has all its bytes. A body that breaks its
 * framing is still read to its end (a client still sending is not cut off, and the body's size
 * limit still counts), then refused with a MultipartError; a consumer's own error is thrown as is.
 */
export async function readMultipart(
  contentType: string,
  body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  onPart: PartHandler,
): Promise<void> {
  const reading = new FormReading(contentType, onPart);
  for await (const piece of body) if (!reading.failed) await reading.write(piece);
  await reading.end();
}

/** One body's reading: busboy, the parts in turn, and the first failure. */
class FormReading {
  private readonly busboy: BusboyInstance;
  private failure: unknown = null;
  private ended = false;
  /** The parts handed over so far, one after the other. */
  private parts: Promise<void> = Promise.resolve();
  /** Settles on busboy's 'finish' or its first 'error'. */
  private readonly settled: Promise<void>;

  constructor(
    contentType: string,
    private readonly onPart: PartHandler,
  ) {
    requireBoundary(contentType);
    try {
      this.busboy = Busboy({
        headers: { 'content-type': contentType },
        // Every part streams (a field's text as well as a file): busboy would cap a text field
        // at 1 MB, and a CSV may come as one. Which part is a file is told by its filename.
        isPartAFile: () => true,
        preservePath: true,
        fileHwm: PART_BUFFER_BYTES,
        limits: { headerSize: MAX_HEADER_BYTES },
      });
    } catch (error) {
      throw new MultipartError((error as Error).message);
    }
    this.settled = new Promise<void>((resolve) => {
      this.busboy.once('finish', resolve);
      this.busboy.on('error', (error) => {
        this.fail(this.framingError(error));
        resolve();
      });
    });
    this.busboy.on('file', (name, stream, filename) => this.announce(name, stream, filename));
  }

  get failed(): boolean {
    return this.failure !== null;
  }

  /** Resolves once busboy has taken the piece: later when a part's consumer is behind. */
  write(piece: Uint8Array): Promise<void> {
    const view = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    return new Promise((resolve) => this.busboy.write(view, () => resolve()));
  }

  async end(): Promise<void> {
    this.ended = true;
    if (this.failure === null) {
      this.busboy.end();
      await this.settled;
      // Busboy finishes only once every part's stream has ended, so the last consumer is running or done.
      if (this.failure === null) await this.parts;
    }
    if (this.failure !== null) throw this.failure;
  }

  private fail(error: unknown): void {
    this.failure ??= error;
  }

  private framingError(error: unknown): MultipartError {
    return new MultipartError(this.ended ? ENDS_EARLY : (error as Error).message);
  }

  /** A part's stream, read once the parts before it are. */
  private announce(name: string | undefined, stream: BusboyFileStream, filename: string | undefined): void {
    // A part cut short by the body's end: its stream fails beside busboy, with the same cause.
    stream.on('error', (error) => this.fail(this.framingError(error)));
    this.parts = this.parts.then(() => this.readPart(name, stream, filename ?? null));
  }

  private readPart(name: string | undefined, stream: BusboyFileStream, filename: string | null): Promise<void> {
    let consumer: PartConsumer | null = null;
    try {
      if (name !== undefined && this.failure === null) consumer = this.onPart(decodeName(name), filename);
    } catch (error) {
      this.fail(error);
    }
    if (consumer === null) {
      stream.resume(); // skipped: drained so busboy goes on
      return Promise.resolve();
    }
    return consume(stream, consumer).catch((error: unknown) => this.fail(error));
  }
}

/**
 * Hands a part's bytes to its consumer in order, pausing the stream while a consumer's promise
 * is pending. After a consumer fails the rest is drained, so busboy is never left waiting.
 * Rejects only with the consumer's own error.
 */
function consume(stream: BusboyFileStream, consumer: PartConsumer): Promise<void> {
  return new Promise((resolve, reject) => {
    let failed = false;
    const failWith = (error: unknown) => {
      failed = true;
      stream.resume();
      reject(error);
    };
    stream.on('data', (data: Buffer) => {
      if (failed) return;
      try {
        const pending = consumer(data);
        if (pending === undefined) return;
        stream.pause();
        pending.then(() => stream.resume(), failWith);
      } catch (error) {
        failWith(error);
      }
    });
    stream.once('end', () => resolve());
    stream.once('error', () => resolve()); // a framing failure, recorded by the reading
  });
}
