/**
 * What the app needs from the transport a request came by, as one typed object on `c.env`:
 * Node's parsed headers (read without building a Headers object), a way to drop the
 * connection (the `drop` fault) and whether the client hung up mid-body. app.fetch builds it
 * from @hono/node-server's documented bindings (`HttpBindings`, what `getRequestListener` and
 * `serve` pass to `fetch`), so an app served the ordinary Hono way behaves as the CLI's. In
 * process (`app.request`) there is no socket: every seam is absent and the code that asks
 * falls back (a drop throws ConnectionDropped, headers come from the Request).
 */
import type { HttpBindings } from '@hono/node-server';

/** Node's parsed request headers (`IncomingMessage.headers`): lower-case names. */
export type NodeHeaders = Record<string, string | string[] | undefined>;

export interface RequestSeams {
  /** Node's parsed request headers (lower-case names), when the request came over a socket. */
  readonly nodeHeaders?: NodeHeaders;
  /** Destroys the request's socket without an answer; absent in process. */
  dropConnection?(): void;
  /** Whether the client hung up before its body was read to the end. */
  clientHungUp?(): boolean;
}

const IN_PROCESS: RequestSeams = Object.freeze({});

/** The seams of a request served by @hono/node-server (a prototype's methods: no closures per request). */
class NodeSeams implements RequestSeams {
  readonly nodeHeaders: NodeHeaders;
  constructor(private readonly request: HttpBindings['incoming']) {
    this.nodeHeaders = request.headers as NodeHeaders;
  }
  dropConnection(): void {
    this.request.socket.destroy();
  }
  clientHungUp(): boolean {
    return !this.request.complete && this.request.destroyed;
  }
}

/** The seams for what a Hono `fetch` was given as its environment. */
export function requestSeams(env: unknown): RequestSeams {
  const request = (env as Partial<HttpBindings> | undefined)?.incoming;
  return request?.socket ? new NodeSeams(request) : IN_PROCESS;
}
