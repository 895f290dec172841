/**
 * A multipart/form-data reader (RFC 7578) for the CSV upload that takes the body piece by
 * piece as it arrives: each part's bytes go to a consumer as views into the pieces, so a
 * 100 MB file is neither held whole nor copied per step as FormData/Blob would.
 */
import { Buffer } from 'node:buffer';

/** Thrown for a body that does not follow its multipart Content-Type. */
export class MultipartError extends Error {}

/** Receives a part's bytes in order (views: copy what must outlive the call's piece). */
export type PartConsumer = (data: Uint8Array) => void;
/** Called as each part starts; answers the consumer of its bytes, or null to skip them. */
export type PartHandler = (name: string, filename: string | null) => PartConsumer | null;

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');
/** Part headers longer than this are refused rather than buffered without end. */
const MAX_HEADER_BYTES = 16 * 1024;
const EMPTY = Buffer.alloc(0);

/** The boundary parameter of a multipart Content-Type, quoted or not. */
export function boundaryOf(contentType: string): string {
  const match = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^\s;]+))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary || boundary.length > 70) throw new MultipartError('the Content-Type has no usable boundary parameter');
  return boundary;
}

type State = 'preamble' | 'after-delimiter' | 'headers' | 'data' | 'done';

export interface MultipartReader {
  /** The next piece of the body; throws MultipartError as soon as the framing breaks. */
  write(piece: Uint8Array): void;
  /** The end of the body: throws MultipartError unless the closing delimiter was read. */
  end(): void;
}

export function createMultipartReader(contentType: string, onPart: PartHandler): MultipartReader {
  return new MultipartParser(Buffer.from(`--${boundaryOf(contentType)}`), onPart);
}

/** The reader's states, one method each; `buf` holds what is not consumed yet. */
class MultipartParser implements MultipartReader {
  private state: State = 'preamble';
  private atStart = true;
  private buf: Buffer = EMPTY;
  private consumer: PartConsumer | null = null;
  /** Inside the body a delimiter is CRLF + "--boundary"; the first one may open the body directly. */
  private readonly next: Buffer;

  constructor(
    private readonly delimiter: Buffer,
    private readonly onPart: PartHandler,
  ) {
    this.next = Buffer.concat([CRLF, delimiter]);
  }

  write(piece: Uint8Array): void {
    if (this.state === 'done' || piece.length === 0) return;
    const view = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    this.buf = this.buf.length === 0 ? view : Buffer.concat([this.buf, view]);
    while (this.step());
  }

  end(): void {
    if (this.state === 'done') return;
    if (this.state === 'preamble') throw new MultipartError('the boundary never occurs in the body');
    if (this.state === 'headers') throw new MultipartError('a part has no end of headers');
    throw new MultipartError('the body ends before the closing boundary');
  }

  /** Advances through `buf` as far as it goes; false when more bytes are needed. */
  private step(): boolean {
    switch (this.state) {
      case 'preamble':
        return this.preamble();
      case 'after-delimiter':
        return this.afterDelimiter();
      case 'headers':
        return this.headers();
      case 'data':
        return this.data();
      case 'done':
        return false;
    }
  }

  private emit(end: number): void {
    if (end > 0 && this.consumer !== null) this.consumer(this.buf.subarray(0, end));
  }

  private preamble(): boolean {
    const { delimiter, next } = this;
    if (this.atStart) {
      if (this.buf.length < delimiter.length) return false;
      this.atStart = false;
      if (this.buf.subarray(0, delimiter.length).equals(delimiter)) {
        this.buf = this.buf.subarray(delimiter.length);
        this.state = 'after-delimiter';
        return true;
      }
    }
    const at = this.buf.indexOf(next);
    if (at < 0) {
      this.buf = this.buf.subarray(Math.max(0, this.buf.length - next.length + 1)); // the preamble is dropped
      return false;
    }
    this.buf = this.buf.subarray(at + next.length);
    this.state = 'after-delimiter';
    return true;
  }

  private afterDelimiter(): boolean {
    const buf = this.buf;
    if (buf.length < 2) return false;
    if (buf[0] === 0x2d && buf[1] === 0x2d) {
      this.state = 'done'; // "--": the closing delimiter; the epilogue is ignored
      this.buf = EMPTY;
      return false;
    }
    let at = 0;
    while (buf[at] === 0x20 || buf[at] === 0x09) at++; // transport padding
    if (at + 2 > buf.length) return false;
    if (buf[at] !== 0x0d || buf[at + 1] !== 0x0a) throw new MultipartError('a boundary line does not end with CRLF');
    this.buf = buf.subarray(at + 2);
    this.state = 'headers';
    return true;
  }

  private headers(): boolean {
    const buf = this.buf;
    if (buf.length < 2) return false;
    let headers = '';
    if (buf[0] === 0x0d && buf[1] === 0x0a)
      this.buf = buf.subarray(2); // a part without headers
    else {
      const end = buf.indexOf(HEADER_END);
      if (end < 0) {
        if (buf.length > MAX_HEADER_BYTES) throw new MultipartError('a part has no end of headers');
        return false;
      }
      headers = buf.toString('utf8', 0, end);
      this.buf = buf.subarray(end + HEADER_END.length);
    }
    const disposition = readDisposition(headers);
    this.consumer = disposition ? this.onPart(disposition.name, disposition.filename) : null;
    this.state = 'data';
    return true;
  }

  private data(): boolean {
    const next = this.next;
    const at = this.buf.indexOf(next);
    if (at < 0) {
      // Keep what could be the start of a delimiter cut in two.
      const safe = this.buf.length - next.length + 1;
      if (safe > 0) {
        this.emit(safe);
        this.buf = this.buf.subarray(safe);
      }
      return false;
    }
    this.emit(at);
    this.consumer = null;
    this.buf = this.buf.subarray(at + next.length);
    this.state = 'after-delimiter';
    return true;
  }
}

export interface FormPart {
  /** Set when the part is a file (its Content-Disposition has a filename). */
  filename: string | null;
  /** The part's bytes: a view into the body when it arrived in one piece. */
  data: Uint8Array;
}

/** Every part of a whole body by field name; a name sent twice keeps its last part. */
export function readMultipart(body: Uint8Array, contentType: string): Map<string, FormPart> {
  const parts = new Map<string, FormPart>();
  const reader = createMultipartReader(contentType, (name, filename) => {
    const pieces: Uint8Array[] = [];
    parts.set(name, { filename, data: new Uint8Array(0) });
    return (data) => {
      pieces.push(data);
      parts.set(name, { filename, data: pieces.length === 1 ? data : Buffer.concat(pieces) });
    };
  });
  reader.write(body);
  reader.end();
  return parts;
}

/** `Content-Disposition: form-data; name="…"; filename="…"`; null when the part has no name. */
function readDisposition(headers: string): { name: string; filename: string | null } | null {
  for (const line of headers.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0 || line.slice(0, colon).trim().toLowerCase() !== 'content-disposition') continue;
    const value = line.slice(colon + 1);
    const name = param(value, 'name');
    return name === null ? null : { name, filename: param(value, 'filename') };
  }
  return null;
}

/** A parameter's value: quoted (browsers %-escape `"`, CR, LF inside) or a bare token. */
function param(value: string, key: string): string | null {
  const match = new RegExp(`;\\s*${key}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, 'i').exec(value);
  if (!match) return null;
  if (match[2] !== undefined) return match[2];
  return (match[1] as string)
    .replace(/\\(.)/g, '$1')
    .replace(/%22/g, '"')
    .replace(/%0D/gi, '\r')
    .replace(/%0A/gi, '\n');
}
