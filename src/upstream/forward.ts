/**
 * One call forwarded to the live service with fetch: the caller's own headers (its `appid`
 * and `apikey` among them) less those that belong to one connection, its body bytes, and a
 * time limit over the whole exchange, answer read included. The answer comes back as
 * status, headers and bytes; a call that got none comes back as one line saying why.
 */

/** Headers of one hop (RFC 9110 §7.6.1), and those fetch sets itself from the URL and the body. */
const NOT_FORWARDED = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'expect',
  // fetch asks for the encodings it decodes, and decodes them: the caller gets identity bytes.
  'accept-encoding',
  // The emulator's own header: it names the proxy's scenarios, which the live service knows nothing of.
  'x-emulator-scenario',
]);

/** Answer headers that described the live connection or the encoded body, not the bytes the caller gets. */
const NOT_RETURNED = new Set([...NOT_FORWARDED, 'content-encoding']);

export interface OutgoingCall {
  method: string;
  url: string;
  /** The caller's headers, names in lower case (a repeated one joined with ", "). */
  headers: Record<string, string>;
  /** Null for a call without a body (GET, HEAD, or an empty one). */
  body: Uint8Array | null;
  timeoutMs: number;
}

export type CallResult =
  | { answered: true; status: number; headers: [string, string][]; body: Uint8Array }
  | { answered: false; reason: string };

/** The header names a `connection` header lists are of this hop too. */
function forwardedHeaders(headers: Record<string, string>, drop: ReadonlySet<string>): Record<string, string> {
  const listed = new Set((headers.connection ?? '').split(',').map((name) => name.trim().toLowerCase()));
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (!drop.has(name) && !listed.has(name)) out[name] = value;
  return out;
}

/** An answer's headers as the caller gets them; each Set-Cookie kept apart (Headers joins the others). */
function returnedHeaders(headers: Headers): [string, string][] {
  const listed = new Set((headers.get('connection') ?? '').split(',').map((name) => name.trim().toLowerCase()));
  const out: [string, string][] = [];
  headers.forEach((value, name) => {
    if (name !== 'set-cookie' && !NOT_RETURNED.has(name) && !listed.has(name)) out.push([name, value]);
  });
  for (const cookie of headers.getSetCookie()) out.push(['set-cookie', cookie]);
  return out;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 160);

/** Why fetch failed, as one line: the system's code and message (ECONNREFUSED …) when there is one. */
function failure(error: unknown, timeoutMs: number, reading: boolean): string {
  if ((error as Error).name === 'TimeoutError')
    return reading
      ? `did not finish its answer within ${timeoutMs} ms (--upstream-timeout-ms)`
      : `gave no answer within ${timeoutMs} ms (--upstream-timeout-ms)`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const what = cause?.code
    ? `${cause.code}${cause.message ? ` (${oneLine(cause.message)})` : ''}`
    : oneLine(cause?.message ?? (error as Error).message ?? String(error));
  return reading ? `lost the connection while answering: ${what}` : `could not be reached: ${what}`;
}

export async function forwardCall(call: OutgoingCall): Promise<CallResult> {
  const signal = AbortSignal.timeout(call.timeoutMs);
  let response: Response;
  try {
    response = await fetch(call.url, {
      method: call.method,
      headers: forwardedHeaders(call.headers, NOT_FORWARDED),
      body: call.body,
      // A redirect is the live service's answer to pass on, not one to follow here.
      redirect: 'manual',
      signal,
    });
  } catch (error) {
    return { answered: false, reason: failure(error, call.timeoutMs, false) };
  }
  try {
    const body = new Uint8Array(await response.arrayBuffer());
    return { answered: true, status: response.status, headers: returnedHeaders(response.headers), body };
  } catch (error) {
    return { answered: false, reason: failure(error, call.timeoutMs, true) };
  }
}
