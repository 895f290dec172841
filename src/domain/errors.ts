/**
 * The one error type of the emulated API. Its HTTP status is looked up from the
 * contract's code table (docs/reference.md#errors), so a code can never leave with the wrong status.
 * Each refusal has a factory: `badRequest` and `notFound` here for a field or a record, the
 * named ones (their words included) in error-messages.ts; `new ApiError(` appears nowhere else.
 */

export const ERROR_STATUS = {
  ERR_BAD_REQUEST: 400,
  ERR_UNAUTHORIZED: 401,
  /** The emulator's own: the control plane refusing another host or origin (its real service answers no 403 code). */
  ERR_FORBIDDEN: 403,
  ERR_NOT_FOUND: 404,
  ERR_TEMPLATE_NOT_APPROVED: 400,
  ERR_INVALID_VARIABLES: 400,
  ERR_TARGET_LIMIT_EXCEEDED: 400,
  ERR_INVALID_MODE: 400,
  ERR_OPERATION_FAILED: 500,
  ERR_TOO_MANY_REQUESTS: 429,
  ERR_PAYLOAD_TOO_LARGE: 413,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** Human-facing default messages; `devMessage` carries the specifics. */
export const DEFAULT_MESSAGES: Record<ErrorCode, string> = {
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
};

export type ErrorDetails = Record<string, string>;

export interface ApiErrorOptions {
  message?: string;
  details?: ErrorDetails;
  /** Only for the two statuses the code table cannot express: 405 (wrong method) and raw faults. */
  status?: number;
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly devMessage: string;
  readonly details: ErrorDetails | undefined;
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, devMessage: string, options: ApiErrorOptions = {}) {
    super(options.message ?? DEFAULT_MESSAGES[code]);
    this.name = 'ApiError';
    this.code = code;
    this.devMessage = devMessage;
    this.details = options.details;
    this.status = options.status ?? ERROR_STATUS[code];
    this.headers = options.headers ?? {};
  }

  toBody(): { error: { code: ErrorCode; message: string; devMessage: string; details?: ErrorDetails } } {
    const error = { code: this.code, message: this.message, devMessage: this.devMessage };
    return { error: this.details ? { ...error, details: this.details } : error };
  }
}

export const badRequest = (devMessage: string, details?: ErrorDetails): ApiError =>
  new ApiError('ERR_BAD_REQUEST', devMessage, { details });

/**
 * The one 404 for a record looked up by reference. `by`: what the reference may be, in the
 * words ("id" for campaigns; "id or key" where keys name things too); `field`: the body or
 * query field that gave it (named in the message and the details); `inAnyApp`: for the
 * control plane, which reads every app's records; `hint`: a sentence after the message.
 * Other 404s have names in error-messages.ts.
 */
export const notFound = (
  what: string,
  id: string,
  {
    by = 'id',
    field,
    inAnyApp = false,
    hint,
  }: { by?: 'id' | 'id or key' | 'id or slug'; field?: string; inAnyApp?: boolean; hint?: string } = {},
): ApiError =>
  new ApiError(
    'ERR_NOT_FOUND',
    `No ${what} with ${by} "${id}" exists ${inAnyApp ? '(in any app)' : 'for this app'}` +
      `${field ? ` (${field})` : ''}.${hint ? ` ${hint}` : ''}`,
    {
      message: `The ${what} was not found.`,
      ...(field ? { details: { [field]: `no ${what} "${id}" in this app` } } : {}),
    },
  );

/** Startup problems (bad flag, fixture, scenario file): every problem listed, file and field named. */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
    this.problems = problems;
  }
}
