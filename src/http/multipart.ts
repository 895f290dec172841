/**
 * A multipart/form-data reader (RFC 7578) for the CSV upload: parts are views into the one
 * body buffer, so an 18 MB file is not copied again per step as FormData/Blob would.
 */
import { Buffer } from 'node:buffer';

export interface FormPart {
  /** Set when the part is a file (its Content-Disposition has a filename). */
  filename: string | null;
  /** A view into the request body: no copy. */
  data: Uint8Array;
}

/** Thrown for a body that does not follow its multipart Content-Type. */
export class MultipartError extends Error {}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

/** The boundary parameter of a multipart Content-Type, quoted or not. */
export function boundaryOf(contentType: string): string {
  const match = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^\s;]+))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary || boundary.length > 70) throw new MultipartError('the Content-Type has no usable boundary parameter');
  return boundary;
}

/** Every part by field name; a name sent twice keeps its last part (as hono's parseBody). */
export function readMultipart(body: Uint8Array, contentType: string): Map<string, FormPart> {
  const buf = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const delimiter = Buffer.from(`--${boundaryOf(contentType)}`);
  // The body delimiter is CRLF + "--boundary"; the first one may open the body directly.
  const next = Buffer.concat([CRLF, delimiter]);
  const parts = new Map<string, FormPart>();
  let at = buf.subarray(0, delimiter.length).equals(delimiter) ? 0 : buf.indexOf(next);
  if (at < 0) throw new MultipartError('the boundary never occurs in the body');
  if (at > 0) at += CRLF.length;
  for (;;) {
    at += delimiter.length;
    if (buf[at] === 0x2d && buf[at + 1] === 0x2d) return parts; // "--": the closing delimiter
    while (buf[at] === 0x20 || buf[at] === 0x09) at++; // transport padding
    if (buf[at] !== 0x0d || buf[at + 1] !== 0x0a) throw new MultipartError('a boundary line does not end with CRLF');
    at += CRLF.length;
    const headersEnd = buf.indexOf(HEADER_END, at - CRLF.length);
    if (headersEnd < 0) throw new MultipartError('a part has no end of headers');
    const headers = headersEnd < at ? '' : buf.toString('utf8', at, headersEnd);
    const dataStart = headersEnd + HEADER_END.length;
    const end = buf.indexOf(next, dataStart - CRLF.length);
    if (end < 0) throw new MultipartError('the body ends before the closing boundary');
    const disposition = readDisposition(headers);
    if (disposition)
      parts.set(disposition.name, {
        filename: disposition.filename,
        data: body.subarray(Math.min(dataStart, end), end),
      });
    at = end + CRLF.length;
  }
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
