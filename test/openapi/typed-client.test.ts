/**
 * The document is usable: openapi-typescript turns it into types, a small openapi-fetch
 * client written against them typechecks (strict), and that client sends a notification
 * and reads it back from a real emulator on port 0.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/index.js';
import { TEST_TEMPLATES } from '../helpers/app.js';
import { OPENAPI_PATH } from '../helpers/openapi.js';

// Inside the repo so the client resolves openapi-fetch from node_modules; ignored by git and prettier.
const DIR = join(fileURLToPath(new URL('.', import.meta.url)), `client-tmp-${process.pid}`);
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const CLIENT = `
import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

export async function sendAndReadBack(baseUrl: string, userId: string) {
  const api = createClient<paths>({
    baseUrl: \`\${baseUrl}/v3/business-messaging\`,
    headers: { appid: 'app-typed', apikey: 'key-typed' },
  });
  const sent = await api.POST('/api/notifications/send', {
    body: { template: { key: 'plain' }, targets: [userId], mode: 'realtime', tag: 'typed' },
  });
  if (sent.error) throw new Error(\`send failed: \${sent.error.error.code} \${sent.error.error.devMessage}\`);
  const notificationId: string = sent.data.notificationId;
  const mode: 'realtime' | 'batch' = sent.data.mode;

  const control = createClient<paths>({ baseUrl });
  const found = await control.GET('/__inspect/deliveries', {
    params: { query: { notificationId, userId, limit: 10 } },
  });
  // Its errors include a 408 (waitFor not reached) that answers with the page, not the envelope.
  if (!found.data) throw new Error(\`inspect failed: \${found.response.status}\`);
  const delivery = found.data.items[0];
  const missing = await api.GET('/api/campaigns/{id}', { params: { path: { id: 'nope' } } });
  const code: string | undefined = missing.error?.error.code;
  return { notificationId, mode, total: found.data.total, userId: delivery?.userId, tag: delivery?.tag, code };
}

/** An event recorded on the notification just sent, then the rollup of a range that holds it. */
export async function recordAndRollUp(baseUrl: string, notificationId: string, userId: string) {
  const api = createClient<paths>({ baseUrl, headers: { appid: 'app-typed', apikey: 'key-typed' } });
  const recorded = await api.POST('/api/analytics/events', {
    body: { campaignId: notificationId, userId, channelType: 'in_app', eventType: 'viewed' },
  });
  if (recorded.error) throw new Error(\`event failed: \${recorded.error.error.code}\`);
  const rolled = await api.POST('/api/analytics/rollup', {
    body: { from: '2000-01-01T00:00:00Z', to: '2999-12-31T23:59:59Z' },
  });
  if (rolled.error) throw new Error(\`rollup failed: \${rolled.error.error.code}\`);
  const eventsProcessed: number = rolled.data.eventsProcessed;
  const backwards = await api.POST('/api/analytics/rollup', {
    body: { from: '2999-12-31T23:59:59Z', to: '2000-01-01T00:00:00Z' },
  });
  return { eventsProcessed, from: rolled.data.from, refused: backwards.error?.error.details?.from };
}

/** The app-scoped control plane: the app's own clock and its own active scenario set. */
export async function scopeToApp(baseUrl: string, appId: string) {
  const control = createClient<paths>({ baseUrl });
  const query = { appId };
  const moved = await control.POST('/__clock', { params: { query }, body: { now: '2031-01-01T00:00:00Z' } });
  if (!moved.data) throw new Error(\`clock failed: \${moved.response.status}\`);
  const scope: 'app' | 'shared' | undefined = moved.data.scope;
  const active = await control.PUT('/__scenarios/active', { params: { query }, body: { names: [] } });
  const list = await control.GET('/__scenarios', { params: { query } });
  const released = await control.DELETE('/__clock', { params: { query } });
  const back = released.data?.scope;
  return { now: moved.data.now, scope, setScope: active.data?.scope, listScope: list.data?.scope, back };
}

/** Never called: the compiler must refuse what the document forbids. */
export function refusedByTheTypes(baseUrl: string) {
  const api = createClient<paths>({ baseUrl });
  // @ts-expect-error targets is an array of user ids
  void api.POST('/api/notifications/send', { body: { template: { key: 'plain' }, targets: 'u1', mode: 'realtime' } });
  // @ts-expect-error a path the API does not have
  void api.GET('/api/notification');
  // @ts-expect-error status is one of the campaign statuses
  void api.GET('/api/campaigns', { params: { query: { status: 'delivered' } } });
  // @ts-expect-error the rollup's range needs both ends
  void api.POST('/api/analytics/rollup', { body: { from: '2030-01-01T00:00:00Z' } });
  // @ts-expect-error /__clock takes appId, not app
  void api.GET('/__clock', { params: { query: { app: 'a' } } });
}
`;

function typecheck(file: string): string[] {
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: [],
    skipLibCheck: true,
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('a client generated from openapi.json', () => {
  it('typechecks and sends a notification and reads it back from a real server', async () => {
    mkdirSync(DIR, { recursive: true });
    const ast = await openapiTS(JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')));
    writeFileSync(join(DIR, 'schema.d.ts'), astToString(ast));
    const clientFile = join(DIR, 'client.ts');
    writeFileSync(clientFile, CLIENT);
    expect(typecheck(clientFile)).toEqual([]);

    const emu = await startEmulator({ port: 0, templates: TEST_TEMPLATES, watch: false, logLevel: 'silent' });
    try {
      const client = (await import(pathToFileURL(clientFile).href)) as {
        sendAndReadBack(url: string, userId: string): Promise<Record<string, unknown>>;
        scopeToApp(url: string, appId: string): Promise<Record<string, unknown>>;
        recordAndRollUp(url: string, notificationId: string, userId: string): Promise<Record<string, unknown>>;
      };
      const result = await client.sendAndReadBack(emu.url, 'typed-user');
      expect(result).toEqual({
        notificationId: expect.any(String),
        mode: 'realtime',
        total: 1,
        userId: 'typed-user',
        tag: 'typed',
        code: 'ERR_NOT_FOUND',
      });
      expect(await client.recordAndRollUp(emu.url, result.notificationId as string, 'typed-user')).toEqual({
        eventsProcessed: 1,
        from: '2000-01-01T00:00:00.000Z',
        refused: 'must not be after "to"',
      });
      expect(await client.scopeToApp(emu.url, 'app-typed')).toEqual({
        now: '2031-01-01T00:00:00.000Z',
        scope: 'app',
        setScope: 'app',
        listScope: 'app',
        back: 'shared',
      });
    } finally {
      await emu.close();
    }
  });
});
