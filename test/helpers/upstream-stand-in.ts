/**
 * A stand-in for the live service in proxy-mode tests: a small recording HTTP proxy on port 0
 * in front of a real emulator. It records every request it gets (method, path with query,
 * headers, body) and can change an answer the way a vendor change would (`alter`), or hold a
 * request without ever answering (`hang`), so a test can see what reached "the live service"
 * and what the emulator in front of it made of the answer.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  /** Path and query, as received. */
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface StandInAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What the stand-in does with a request: pass it on, pass on a changed answer, or never answer. */
export type StandInPlan = (request: SeenRequest) => 'pass' | 'hang' | ((answer: StandInAnswer) => StandInAnswer);

export interface UpstreamStandIn {
  url: string;
  /** Every request it received, oldest first. */
  readonly seen: SeenRequest[];
  /** How the next requests are treated (default: passed on unchanged). */
  plan: StandInPlan;
  close(): Promise<void>;
}

const readAll = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/** Headers that describe one connection: not passed between the two hops. */
const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

async function passOn(target: string, seen: SeenRequest, bytes: Buffer): Promise<StandInAnswer> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(seen.headers))
    if (value !== undefined && !HOP.has(name)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  const res = await fetch(`${target}${seen.url}`, {
    method: seen.method,
    headers,
    body: seen.method === 'GET' || seen.method === 'HEAD' ? undefined : bytes,
  });
  const out: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!HOP.has(name) && name !== 'content-encoding') out[name] = value;
  });
  return { status: res.status, headers: out, body: await res.text() };
}

export async function startUpstreamStandIn(target: string): Promise<UpstreamStandIn> {
  const seen: SeenRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const state: UpstreamStandIn = {
    url: '',
    seen,
    plan: () => 'pass',
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const server = createServer((req, res) => {
    void (async () => {
      const bytes = await readAll(req);
      const request: SeenRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: bytes.toString('utf8'),
      };
      seen.push(request);
      const plan = state.plan(request);
      if (plan === 'hang') return void hanging.add(res);
      const answer = await passOn(target, request, bytes);
      const given = plan === 'pass' ? answer : plan(answer);
      res.writeHead(given.status, given.headers);
      res.end(given.body);
    })().catch((error: unknown) => {
      res.writeHead(599);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
