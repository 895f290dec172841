/**
 * The one place errors become responses: ApiError → the contract's envelope with the
 * status of its code; anything else is an emulator bug, logged and sent as a 500.
 */
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ApiError } from '../domain/errors.js';
import type { Logger } from '../platform/logger.js';
import type { AppEnv } from './context.js';

export function errorResponse(c: Context<AppEnv>, error: ApiError): Response {
  c.set('errorCode', error.code);
  return c.json(error.toBody(), error.status as 400, error.headers);
}

/** The root app's error handler; unexpected errors are logged to `logger`. */
export const onError =
  (logger: Logger): ErrorHandler<AppEnv> =>
  (error, c) => {
    if (error instanceof ApiError) return errorResponse(c, error);
    if (error instanceof HTTPException && error.status === 413) {
      return errorResponse(c, new ApiError('ERR_PAYLOAD_TOO_LARGE', 'The request body exceeds the configured limit.'));
    }
    if (error instanceof HTTPException && error.status < 500) {
      return errorResponse(c, new ApiError('ERR_BAD_REQUEST', error.message || 'The request could not be read.'));
    }
    logger.error(`unexpected error on ${c.req.method} ${c.req.path}: ${(error as Error).stack ?? String(error)}`);
    return errorResponse(
      c,
      new ApiError(
        'ERR_OPERATION_FAILED',
        `Internal emulator error: ${(error as Error).message}. This is a bug in the emulator, not an injected fault.`,
      ),
    );
  };

export const onNotFound: NotFoundHandler<AppEnv> = (c) =>
  errorResponse(
    c,
    new ApiError('ERR_NOT_FOUND', `No route for ${c.req.method} ${c.req.path}.`, {
      message: 'The requested resource was not found.',
    }),
  );
