/**
 * Talks to a live account over HTTP for `pull`, `check-fixtures` and `verify`: `appid` +
 * `apikey` headers, a timeout per request, bounded retries on 429 (honouring `Retry-After`),
 * and one-line errors that name the request and never the key.
 */
import { realNow } from '../../platform/clock.js';

export { defaultBaseUrl } from '../../platform/live-host.js';

/**
 * A read that failed; `message` is one line naming what failed. `status` is the answer's
 * status when there was one, absent when the service could not be reached or did not answer.
 */
export class LiveReadError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface LiveClientOptions {
  baseUrl: string;
  appId: string;
  apiKey: string;
  timeoutMs: number;
  /** Retries after a 429 before giving up. */
  maxRetries: number;
  /** Longest wait for one retry; a longer `Retry-After` fails at once. */
  maxRetryWaitMs: number;
  /** Called before each wait, for a progress line. */
  onRetry?: (what: string, waitMs: number, attempt: number) => void;
  sleep?: (ms: number) => Promise<void>;
}

export interface LiveResponse {
  status: number;
  headers: Headers;
  json: unknown;
}

const sleepReal = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number = realNow()): number | null {
  if (value === null || value.trim() === '') return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/^[A-Za-z]{3}, /.test(text)) return null; // an HTTP date starts with the day name
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

const oneLine = (text: string, max = 120) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
};

/** `code: message` of an error envelope, when the body is one. */
function envelopeSummary(json: unknown): string | null {
  if (typeof json !== 'object' || json === null || !('error' in json)) return null;
  const error = (json as { error: unknown }).error;
  if (typeof error !== 'object' || error === null) return null;
  const { code, message } = error as { code?: unknown; message?: unknown };
  const parts = [typeof code === 'string' ? code : null, typeof message === 'string' ? oneLine(message) : null];
  return parts.filter(Boolean).join(': ') || null;
}

function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `${cause.code}${cause.message ? ` (${oneLine(cause.message, 80)})` : ''}`;
  return oneLine(cause?.message ?? (error as Error).message ?? String(error), 80);
}

/** A request as sent: headers beside `appid`, `apikey` and `accept` (same name: replaces it), and a text body. */
export interface LiveRequest {
  method: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Any answer, as it came: status, headers and the body's text. */
export interface LiveRawResponse {
  status: number;
  headers: Headers;
  text: string;
}

export interface LiveClient {
  readonly baseUrl: string;
  /** GET a JSON document; 2xx only. `allow404` returns null for a 404 instead of failing. */
  get(path: string, query?: Record<string, string | number>, allow404?: boolean): Promise<LiveResponse | null>;
  /**
   * Any request, its answer whatever the status (429 retried as for `get`); throws
   * LiveReadError only when no answer came.
   */
  send(path: string, request: LiveRequest): Promise<LiveRawResponse>;
}

export function createLiveClient(options: LiveClientOptions): LiveClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const sleep = options.sleep ?? sleepReal;

  async function once(url: string, what: string, request: LiveRequest): Promise<Response> {
    try {
      return await fetch(url, {
        method: request.method,
        headers: { appid: options.appId, apikey: options.apiKey, accept: 'application/json', ...request.headers },
        body: request.body,
        signal: AbortSignal.timeout(options.timeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      if ((error as Error).name === 'TimeoutError') {
        throw new LiveReadError(`${what} got no answer within ${options.timeoutMs} ms (--timeout-ms)`);
      }
      throw new LiveReadError(`${what} failed on the network: ${networkReason(error)}`);
    }
  }

  async function readBody(response: Response, what: string): Promise<string> {
    try {
      return await response.text();
    } catch (error) {
      if ((error as Error).name === 'TimeoutError') {
        throw new LiveReadError(`${what} did not finish its answer within ${options.timeoutMs} ms (--timeout-ms)`);
      }
      throw new LiveReadError(`${what} lost the connection while reading the answer: ${networkReason(error)}`);
    }
  }

  /** One request's answer, after the retries a 429 allows. */
  async function exchange(url: string, what: string, request: LiveRequest): Promise<LiveRawResponse> {
    for (let attempt = 0; ; attempt++) {
      const response = await once(url, what, request);
      const text = await readBody(response, what);
      if (response.status !== 429) return { status: response.status, headers: response.headers, text };
      const header = response.headers.get('retry-after');
      const wait = retryAfterMs(header) ?? 1000 * 2 ** attempt;
      if (attempt >= options.maxRetries) {
        throw new LiveReadError(
          `${what} was rate limited (429) ${attempt + 1} times in a row; ` +
            `gave up after ${options.maxRetries} retries`,
          429,
        );
      }
      if (wait > options.maxRetryWaitMs) {
        throw new LiveReadError(
          `${what} was rate limited (429) with Retry-After ${header}: ` +
            `longer than the ${Math.round(options.maxRetryWaitMs / 1000)} s this command waits`,
          429,
        );
      }
      options.onRetry?.(what, wait, attempt + 1);
      await sleep(wait);
    }
  }

  return {
    baseUrl,
    send(path, request) {
      return exchange(`${baseUrl}${path}`, `${request.method} ${baseUrl}${path}`, request);
    },
    async get(path, query = {}, allow404 = false) {
      const search = new URLSearchParams(
        Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
      ).toString();
      const url = `${baseUrl}${path}${search ? `?${search}` : ''}`;
      const what = `GET ${url}`;
      const response = await exchange(url, what, { method: 'GET' });
      return jsonAnswer(response, what, allow404);
    },
  };
}

/** A read's answer as JSON: null for an allowed 404, a LiveReadError naming the status or the body otherwise. */
function jsonAnswer(response: LiveRawResponse, what: string, allow404: boolean) {
  const { text } = response;
  let json: unknown;
  let parsed = true;
  try {
    json = JSON.parse(text);
  } catch {
    parsed = false;
  }
  if (response.status === 404 && allow404) return null;
  if (response.status < 200 || response.status > 299) {
    const summary = parsed ? envelopeSummary(json) : null;
    const hint =
      response.status === 401
        ? ' (check the app id and the API key)'
        : response.status === 403
          ? ' (the API key has no access to this)'
          : '';
    throw new LiveReadError(
      `${what} answered ${response.status}` + (summary ? ` ${summary}` : text ? `: ${oneLine(text, 80)}` : '') + hint,
      response.status,
    );
  }
  if (!parsed) {
    const type = response.headers.get('content-type') ?? 'no content type';
    throw new LiveReadError(
      `${what} answered ${response.status} with a body that is not JSON ` +
        `(${oneLine(type, 60)}${text ? `: "${oneLine(text, 60)}"` : ', empty'})`,
      response.status,
    );
  }
  return { status: response.status, headers: response.headers, json };
}
