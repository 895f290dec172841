/**
 * The error type every refusal is made of (src/domain/errors.ts): each code's status and
 * default message, the envelope it turns into, and the words of a 404.
 */
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  ConfigError,
  DEFAULT_MESSAGES,
  ERROR_STATUS,
  badRequest,
  notFound,
} from '../../src/domain/errors.js';

describe('ApiError', () => {
  it('takes the status and default message of its code', () => {
    expect(ERROR_STATUS).toEqual({
      ERR_BAD_REQUEST: 400,
      ERR_UNAUTHORIZED: 401,
      ERR_FORBIDDEN: 403,
      ERR_NOT_FOUND: 404,
      ERR_TEMPLATE_NOT_APPROVED: 400,
      ERR_INVALID_VARIABLES: 400,
      ERR_TARGET_LIMIT_EXCEEDED: 400,
      ERR_INVALID_MODE: 400,
      ERR_OPERATION_FAILED: 500,
      ERR_TOO_MANY_REQUESTS: 429,
      ERR_PAYLOAD_TOO_LARGE: 413,
    });
    expect(DEFAULT_MESSAGES).toEqual({
      ERR_BAD_REQUEST: 'The request is invalid.',
      ERR_UNAUTHORIZED: 'Authentication failed: check the appid and apikey headers.',
      ERR_FORBIDDEN: 'This host or origin may not use the control plane.',
      ERR_NOT_FOUND: 'The requested resource was not found.',
      ERR_TEMPLATE_NOT_APPROVED: 'The template is not approved for sending.',
      ERR_INVALID_VARIABLES: 'The template variables are missing or invalid.',
      ERR_TARGET_LIMIT_EXCEEDED: 'Too many targets for the selected mode.',
      ERR_INVALID_MODE: 'The mode must be "realtime" or "batch".',
      ERR_OPERATION_FAILED: 'The operation failed. Please try again.',
      ERR_TOO_MANY_REQUESTS: 'Too many requests. Please retry later.',
      ERR_PAYLOAD_TOO_LARGE: 'The request body is too large.',
    });
    const error = new ApiError('ERR_TOO_MANY_REQUESTS', 'slow down');
    expect(error).toMatchObject({
      name: 'ApiError',
      code: 'ERR_TOO_MANY_REQUESTS',
      message: 'Too many requests. Please retry later.',
      devMessage: 'slow down',
      details: undefined,
      status: 429,
      headers: {},
    });
    expect(error).toBeInstanceOf(Error);
  });

  it('lets options set the message, status, headers and details', () => {
    const error = new ApiError('ERR_BAD_REQUEST', 'dev', {
      message: 'Method not allowed.',
      status: 405,
      headers: { allow: 'GET' },
      details: { method: 'is POST' },
    });
    expect(error).toMatchObject({ message: 'Method not allowed.', status: 405, headers: { allow: 'GET' } });
  });

  it('turns into the envelope, with details only when it has some', () => {
    expect(new ApiError('ERR_NOT_FOUND', 'gone').toBody()).toStrictEqual({
      error: { code: 'ERR_NOT_FOUND', message: 'The requested resource was not found.', devMessage: 'gone' },
    });
    expect(badRequest('bad', { field: 'is wrong' }).toBody()).toStrictEqual({
      error: {
        code: 'ERR_BAD_REQUEST',
        message: 'The request is invalid.',
        devMessage: 'bad',
        details: { field: 'is wrong' },
      },
    });
  });
});

describe('notFound', () => {
  it('names the kind, the id and the app, with a message of its own', () => {
    expect(notFound('campaign', 'c1').toBody()).toStrictEqual({
      error: {
        code: 'ERR_NOT_FOUND',
        message: 'The campaign was not found.',
        devMessage: 'No campaign with id "c1" exists for this app.',
      },
    });
    expect(notFound('campaign', 'c1').status).toBe(404);
  });

  it('names how it looked, the query field, any app and a hint', () => {
    const error = notFound('channel', 'push', { by: 'id or key', field: 'channelId', hint: 'List them first.' });
    expect(error.devMessage).toBe('No channel with id or key "push" exists for this app (channelId). List them first.');
    expect(error.details).toEqual({ channelId: 'no channel "push" in this app' });
    expect(notFound('campaign', 'c1', { inAnyApp: true }).devMessage).toBe(
      'No campaign with id "c1" exists (in any app).',
    );
  });
});

describe('ConfigError', () => {
  it('lists every problem, one a line', () => {
    const error = new ConfigError(['a.json: bad', 'b.yaml: worse']);
    expect(error).toMatchObject({ name: 'ConfigError', problems: ['a.json: bad', 'b.yaml: worse'] });
    expect(error.message).toBe('a.json: bad\nb.yaml: worse');
  });
});
