/**
 * The one place errors become responses: ApiError → the contract's envelope with the
 * status of its code; anything else is an emulator bug, logged and sent as a 500.
 */
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ApiError } from '../domain/errors.js';
import { internalError, payloadTooLarge, routeNotFound, unreadableRequest } from '../domain/error-messages.js';
import type { Logger } from '../platform/logger.js';
import type { AppEnv } from './context.js';
import { answer } from './answer.js';

export function errorResponse(c: Context<AppEnv>, error: ApiError): Response {
  return answer(c, error.toBody(), error.status, error.headers, error.code);
}

/**
 * The client hung up before its request was read to the end (the body stream fails with
 * "aborted"). Nobody is left to answer: the journal records 499, as for a dropped
 * connection, and nothing is logged as an emulator bug.
 */
const clientHungUp = (c: Context<AppEnv>): boolean => c.env?.clientHungUp?.() === true;

export const CLIENT_CLOSED_REQUEST = 499;

/** The root app's error handler; unexpected errors are logged to `logger`. */
export const onError =
  (logger: Logger): ErrorHandler<AppEnv> =>
  (error, c) => {
    if (!(error instanceof ApiError) && clientHungUp(c)) return new Response(null, { status: CLIENT_CLOSED_REQUEST });
    return errorResponse(c, asApiError(error, logger, `${c.req.method} ${c.req.path}`));
  };

/**
 * Any error as the ApiError the client is answered with: hono's own 4xx as their codes, and
 * anything unexpected as ERR_OPERATION_FAILED, logged with its stack as an emulator bug.
 * `where` names the request in the log (`POST /api/notifications/send`).
 */
export function asApiError(error: unknown, logger: Logger, where: string): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof HTTPException && error.status === 413) return payloadTooLarge();
  if (error instanceof HTTPException && error.status < 500) return unreadableRequest(error.message);
  logger.error(`unexpected error on ${where}: ${(error as Error).stack ?? String(error)}`);
  return internalError(error);
}

/** An answer as plain values, for a transport that does not answer through Hono (the send fast path). */
export interface PlainAnswer {
  status: number;
  headers: Record<string, string>;
  /** The JSON body's text. */
  body: string;
  /** The contract's error code; null for a success. */
  errorCode: string | null;
}

/** Any error as asApiError makes it, in its envelope as plain values (what c.json would send). */
export function errorAnswer(error: unknown, logger: Logger, where: string): PlainAnswer {
  const failure = asApiError(error, logger, where);
  return {
    status: failure.status,
    headers: { 'Content-Type': 'application/json', ...failure.headers },
    body: JSON.stringify(failure.toBody()),
    errorCode: failure.code,
  };
}

export const onNotFound: NotFoundHandler<AppEnv> = (c) => errorResponse(c, routeNotFound(c.req.method, c.req.path));
