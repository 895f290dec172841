/**
 * call() and send() with an untyped body by default, for the test files that still read some
 * answers without declaring their shape (those that came with the template-channel and paging
 * work). Other tests use call<T>() / callOk<T>() from app.ts (List<Delivery>, ErrorBody, …);
 * a file moves off this module once its reads are typed.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import type { EmulatorApp } from '../../src/index.js';
import { call, send, type CallOptions, type CallResult } from './app.js';

export const callUntyped = <T = any>(
  app: EmulatorApp,
  method: string,
  path: string,
  body?: unknown,
  options?: CallOptions,
): Promise<CallResult<T>> => call<T>(app, method, path, body, options);

export const sendUntyped = <T = any>(app: EmulatorApp, body: unknown, options?: CallOptions): Promise<CallResult<T>> =>
  send<T>(app, body, options);
