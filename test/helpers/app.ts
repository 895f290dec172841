/**
 * Test helpers: a fresh isolated emulator per test, a small template set, and a request
 * helper that returns status + parsed JSON. Black-box: only the public entry is imported.
 */
import { expect } from 'vitest';
import {
  createApp,
  EmulatorClock,
  type CreateAppOptions,
  type EmulatorApp,
  type Notification,
} from '../../src/index.js';
import { checkAnswer } from './openapi.js';

export const TEST_TEMPLATES = [
  {
    id: 'aaaaaaaaaaaaaaaaaaaaaaaa',
    key: 'order-confirmation',
    name: 'Order Confirmation',
    status: 'approved',
    channels: ['in_app', 'push'],
    variableSchema: [
      { key: 'customerName', type: 'string', name: 'Customer name', required: true },
      { key: 'banner', type: 'image', name: 'Banner', required: false },
      { key: 'cta', type: 'action', name: 'Button', required: true },
    ],
    content: {
      in_app: { title: 'Hi {{customerName}}', body: 'See {{banner}}', button: '{{cta}}' },
      push: { title: 'Order for {{customerName}}', body: 'Open {{cta}} {{unknownVar}}' },
    },
  },
  {
    key: 'plain',
    name: 'Plain',
    status: 'approved',
    channels: ['in_app'],
    variableSchema: [],
    content: { in_app: { title: 'Hello' } },
  },
  {
    key: 'greeting',
    name: 'Greeting',
    status: 'approved',
    variableSchema: { name: { type: 'string' } },
    content: { in_app: { title: 'Hi {{name}}' } },
  },
  { key: 'draft-one', status: 'draft', variableSchema: [], content: { in_app: { title: 'Draft' } } },
  { key: 'archived-one', status: 'archived', variableSchema: [], content: { in_app: { title: 'Archived' } } },
];

export const CTA = { type: 'web', data: 'https://shop.example/track' };
export const BANNER = { url: 'https://cdn.example/b.png', width: 100, height: 100 };

export function makeTestApp(options: CreateAppOptions = {}): EmulatorApp {
  return createApp({ templates: TEST_TEMPLATES, watch: false, logLevel: 'silent', seed: 1, ...options });
}

export const manualClock = (start = '2030-01-01T00:00:00.000Z') => new EmulatorClock(start);

export interface CallOptions {
  appId?: string;
  apiKey?: string;
  headers?: Record<string, string>;
  /** Raw body (string or FormData); otherwise `body` is sent as JSON. */
  raw?: string | FormData | Uint8Array;
}

/** An answer in-process: status, the parsed JSON body (typed by the caller: call<T>()), headers. */
export interface CallResult<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** The error envelope every refusal of the emulated API answers with. */
export interface ErrorBody {
  error: { code: string; message: string; devMessage: string; details: Record<string, string> };
}

/**
 * Calls the app in-process. API paths get auth headers unless `appId: ''` is passed. The
 * answer is checked against openapi.json (an answer it does not describe fails the test).
 */
export async function call<T = unknown>(
  app: EmulatorApp,
  method: string,
  path: string,
  body?: unknown,
  options: CallOptions = {},
): Promise<CallResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (!path.startsWith('/__')) {
    if (options.appId !== '') headers.appid ??= options.appId ?? 'app-test';
    if (options.apiKey !== '') headers.apikey ??= options.apiKey ?? 'key-test';
  }
  let init: RequestInit = { method, headers };
  if (options.raw !== undefined) init = { ...init, body: options.raw as RequestInit['body'] };
  else if (body !== undefined) {
    headers['content-type'] ??= 'application/json';
    init = { ...init, body: JSON.stringify(body) };
  }
  const res = await app.request(path, init);
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* keep text */
  }
  const result = { status: res.status, body: parsed as T, headers: res.headers };
  checkAnswer(app, method, path, result);
  return result;
}

/** `app.request` with the answer checked against openapi.json, for requests `call()` cannot make (streamed bodies). */
export async function request(app: EmulatorApp, path: string, init: RequestInit): Promise<Response> {
  const res = await app.request(path, init);
  const type = res.headers.get('content-type') ?? '';
  const text = type.includes('json') ? await res.clone().text() : '';
  checkAnswer(app, init.method ?? 'GET', path, {
    status: res.status,
    headers: res.headers,
    body: text ? JSON.parse(text) : undefined,
  });
  return res;
}

/** The error of an answer the test knows is a refusal (after expectApiError). */
export const errorOf = (res: CallResult): ErrorBody['error'] => (res.body as ErrorBody).error;

/** Asserts the contract's envelope with this status and code, and returns the error for further checks. */
export function expectApiError(res: CallResult, status: number, code: string): ErrorBody['error'] {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ error: { code, message: expect.any(String), devMessage: expect.any(String) } });
  return (res.body as ErrorBody).error;
}

export const send = <T = Notification>(app: EmulatorApp, body: unknown, options?: CallOptions) =>
  call<T>(app, 'POST', '/api/notifications/send', body, options);

/**
 * A setup step that must succeed: fails the test here, naming the request and the answer,
 * when the status is not 2xx (instead of a confusing failure or a timeout later). Returns the body.
 */
export async function callOk<T = unknown>(
  app: EmulatorApp,
  method: string,
  path: string,
  body?: unknown,
  options?: CallOptions,
): Promise<T> {
  const res = await call<T>(app, method, path, body, options);
  if (res.status < 200 || res.status > 299) {
    expect.fail(`setup step ${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  }
  return res.body;
}

/** A send that must succeed (see callOk). */
export const sendOk = (app: EmulatorApp, body: unknown, options?: CallOptions) =>
  callOk<Notification>(app, 'POST', '/api/notifications/send', body, options);

/** An inspect list answer: `{ total, items }`. */
export interface List<T> {
  total: number;
  items: T[];
}

/** The rendered title of a delivery on a channel (rendered content is free-form per template). */
export const renderedTitle = (delivery: { rendered: Record<string, unknown> }, channel = 'in_app'): unknown =>
  (delivery.rendered[channel] as { title?: unknown } | undefined)?.title;
