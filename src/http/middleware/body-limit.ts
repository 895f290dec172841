/**
 * Request size limits: JSON bodies (default 50 MB) and CSV uploads (default 100 MB)
 * answer 413 ERR_PAYLOAD_TOO_LARGE past their limit.
 */
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ApiError } from '../../domain/errors.js';
import type { AppEnv } from '../context.js';
import type { Emulator } from '../../emulator.js';

export function limitBody(emulator: Emulator): MiddlewareHandler<AppEnv> {
  const tooLarge = (limit: number) => () => {
    throw new ApiError('ERR_PAYLOAD_TOO_LARGE', `The request body exceeds the limit of ${limit} bytes.`);
  };
  const json = bodyLimit({ maxSize: emulator.options.bodyLimitBytes, onError: tooLarge(emulator.options.bodyLimitBytes) });
  const upload = bodyLimit({ maxSize: emulator.options.uploadLimitBytes, onError: tooLarge(emulator.options.uploadLimitBytes) });
  return (c, next) => (c.req.path.endsWith('/campaigns/upload') ? upload(c, next) : json(c, next));
}
