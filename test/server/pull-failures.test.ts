/**
 * `pull` and `check-fixtures` against a scripted HTTP server: paging with and without
 * X-Total-Count (and a server that ignores it), 429 with Retry-After, timeouts, pages that are
 * not JSON, network errors and a failure midway. Every failure is one line, exit 1, and leaves
 * the output folder exactly as it was; the key is in no output.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  allFileTexts,
  checkFixtures,
  folderSnapshot,
  LIVE_KEY,
  printed,
  pull,
  tempDir,
} from '../helpers/live-account.js';

/** Where this file's output starts in `printed` (files before it in the worker printed too). */
const FIRST_PRINTED = printed.length;

type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void;

/** A regular expression from pieces (keeps long expected messages under the line limit). */
const re = (...parts: string[]) => new RegExp(parts.join(''));

let server: Server;
let base: string;
let handler: Handler;
let requests: { path: string; appid: string | undefined; apikey: string | undefined }[] = [];
const root = tempDir('pull-failures-');

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push({
      path: url.pathname + url.search,
      appid: req.headers.appid as string,
      apikey: req.headers.apikey as string,
    });
    handler(req, res, url);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  requests = [];
});

const CHANNEL = { id: 'c'.repeat(24), name: 'Inbox', key: 'inbox', type: 'in_app', templateType: 'ui', enabled: true };
const idOf = (i: number) => i.toString(16).padStart(24, '0');
const template = (i: number) => ({
  id: idOf(i),
  appId: 'shop',
  templateId: `t-${String(i).padStart(3, '0')}`,
  name: `Template ${i}`,
  status: 'approved',
  category: 'transactional',
  channelIds: [CHANNEL.id],
  variableSchema: { name: { type: 'string' } },
  config: {},
  createdAt: '2024-01-15T09:30:00.000Z',
  updatedAt: '2024-01-15T09:30:00.000Z',
});
const row = (templateId: string) => ({
  templateId,
  channelId: CHANNEL.id,
  channelType: 'in_app',
  content: { title: `Hi {{name}} (${templateId})` },
  createdAt: '2024-01-15T09:30:00.000Z',
  updatedAt: '2024-01-15T09:30:00.000Z',
});

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

interface AccountOptions {
  templates: number;
  /** The key it accepts. @default LIVE_KEY */
  key?: string;
  /** paged: honours page/limit and sends X-Total-Count; unpaged: the whole list every time. */
  paging?: 'paged' | 'paged-no-count' | 'unpaged' | 'repeats-first-page';
  override?: (url: URL, res: ServerResponse) => boolean;
}

/** A well-behaved account, with hooks to break it. */
function account(options: AccountOptions): Handler {
  const all = Array.from({ length: options.templates }, (_, i) => template(i + 1));
  return (req, res, url) => {
    if (options.override?.(url, res)) return;
    if (req.headers.apikey !== (options.key ?? LIVE_KEY) || req.headers.appid !== 'shop') {
      json(res, 401, { error: { code: 'ERR_UNAUTHORIZED', message: `unknown key ${String(req.headers.apikey)}` } });
      return;
    }
    const page = Number(url.searchParams.get('page') ?? 1);
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const pageOf = <T>(list: T[]): { items: T[]; headers: Record<string, string> } => {
      switch (options.paging ?? 'paged') {
        case 'unpaged':
          return { items: list, headers: {} };
        case 'repeats-first-page':
          return { items: list.slice(0, limit), headers: { 'x-total-count': String(list.length) } };
        case 'paged-no-count':
          return { items: list.slice((page - 1) * limit, page * limit), headers: {} };
        default:
          return {
            items: list.slice((page - 1) * limit, page * limit),
            headers: { 'x-total-count': String(list.length) },
          };
      }
    };
    if (url.pathname === '/api/templates') {
      const { items, headers } = pageOf(all);
      json(res, 200, items, headers);
    } else if (url.pathname === '/api/channels') {
      const { items, headers } = pageOf([CHANNEL]);
      json(res, 200, items, headers);
    } else if (url.pathname === '/api/template-channels') {
      json(res, 200, [row(url.searchParams.get('templateId')!)]);
    } else {
      json(res, 404, { error: { code: 'ERR_NOT_FOUND', message: 'no route' } });
    }
  };
}

const args = (out: string, ...more: string[]) => ['--app-id', 'shop', '--base-url', base, '--out', out, ...more];

/** An output folder that already holds fixtures (and an apps.json pull must never touch). */
function existingOut(name: string): string {
  const out = join(root, name, 'fixtures');
  mkdirSync(join(out, 'templates'), { recursive: true });
  writeFileSync(join(out, 'templates', 'keep.json'), '{ "key": "keep" }\n');
  writeFileSync(join(out, 'channels.json'), '[]\n');
  writeFileSync(join(out, 'apps.json'), '[{ "appId": "shop", "apiKey": "local-only" }]\n');
  return out;
}

const templateRequests = () => requests.filter((r) => r.path.startsWith('/api/templates'));

describe('paging', () => {
  it('follows X-Total-Count across pages of 100', async () => {
    handler = account({ templates: 250 });
    const out = join(root, 'paged');
    const res = await pull(args(out));
    expect(res.code, res.stderr).toBe(0);
    expect(templateRequests().map((r) => r.path)).toEqual([
      '/api/templates?page=1&limit=100',
      '/api/templates?page=2&limit=100',
      '/api/templates?page=3&limit=100',
    ]);
    expect(Object.keys(folderSnapshot(join(out, 'templates')))).toHaveLength(250);
    expect(requests.filter((r) => r.path.startsWith('/api/template-channels'))).toHaveLength(250);
    expect(requests.every((r) => r.appid === 'shop' && r.apikey === LIVE_KEY)).toBe(true);
  });

  it('without X-Total-Count, stops at the first short or empty page', async () => {
    handler = account({ templates: 200, paging: 'paged-no-count' });
    const res = await pull(args(join(root, 'no-count')));
    expect(res.code, res.stderr).toBe(0);
    expect(templateRequests()).toHaveLength(3); // 100, 100, then an empty page
    expect(res.stdout).toContain('wrote 200 template(s)');
  });

  it('takes the whole list in one answer from a server that ignores paging', async () => {
    handler = account({ templates: 130, paging: 'unpaged' });
    const res = await pull(args(join(root, 'unpaged')));
    expect(res.code, res.stderr).toBe(0);
    expect(templateRequests()).toHaveLength(1);
    expect(res.stdout).toContain('wrote 130 template(s)');
    handler = account({ templates: 100, paging: 'unpaged' }); // exactly one full page: page 2 repeats it
    const exact = await pull(args(join(root, 'unpaged-100')));
    expect(exact.code, exact.stderr).toBe(0);
    expect(exact.stdout).toContain('wrote 100 template(s)');
  });

  it('fails when a server counts more items than its pages give', async () => {
    handler = account({ templates: 150, paging: 'repeats-first-page' });
    const out = existingOut('repeats');
    const before = folderSnapshot(out);
    const res = await pull(args(out));
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(
      /\/api\/templates \(page 2\) repeats items of earlier pages: read 100 of the 150 the server counts/,
    );
    expect(folderSnapshot(out)).toEqual(before);
  });
});

describe('rate limits', () => {
  it('waits as Retry-After says, then carries on', async () => {
    let limited = 0;
    handler = account({
      templates: 3,
      override: (url, res) => {
        if (url.pathname === '/api/template-channels' && limited++ === 0) {
          json(res, 429, { error: { code: 'ERR_TOO_MANY_REQUESTS', message: 'slow down' } }, { 'retry-after': '1' });
          return true;
        }
        return false;
      },
    });
    const started = performance.now();
    const res = await pull(args(join(root, 'retry-after')));
    expect(res.code, res.stderr).toBe(0);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(res.stderr).toMatch(/was rate limited \(429\); retry 1 in 1 s/);
    expect(res.stdout).toContain('wrote 3 template(s)');
  });

  it('gives up after --max-retries and writes nothing', async () => {
    handler = account({
      templates: 3,
      override: (url, res) => {
        if (url.pathname !== '/api/templates') return false;
        json(res, 429, { error: { code: 'ERR_TOO_MANY_REQUESTS' } }, { 'retry-after': '0' });
        return true;
      },
    });
    const out = existingOut('429');
    const before = folderSnapshot(out);
    const res = await pull(args(out, '--max-retries', '2'));
    expect(res.code).toBe(1);
    expect(templateRequests()).toHaveLength(3);
    expect(res.stderr.trim().split('\n').at(-1)).toMatch(
      re(
        String.raw`^notification-emulator pull: failed: GET \S+/api/templates\?page=1&limit=100 `,
        String.raw`was rate limited \(429\) 3 times in a row; gave up after 2 retries$`,
      ),
    );
    expect(folderSnapshot(out)).toEqual(before);
  });

  it('fails at once when Retry-After is longer than it waits', async () => {
    handler = account({
      templates: 3,
      override: (_url, res) => {
        json(res, 429, {}, { 'retry-after': '3600' });
        return true;
      },
    });
    const out = existingOut('long-wait');
    const before = folderSnapshot(out);
    const res = await pull(args(out));
    expect(res.code).toBe(1);
    expect(folderSnapshot(out)).toEqual(before);
    expect(res.stderr).toMatch(
      /rate limited \(429\) with Retry-After 3600: longer than the 60 s this command waits\n$/,
    );
    expect(requests).toHaveLength(1);
  });
});

describe('failures leave the output folder untouched', () => {
  const cases: [string, Handler, string[], RegExp][] = [
    [
      '401',
      account({ templates: 3 }),
      ['--app-id', 'other'],
      /answered 401 ERR_UNAUTHORIZED: unknown key \*\*\* \(check the app id and the API key\)$/,
    ],
    [
      'a timeout',
      account({ templates: 3, override: (url) => url.pathname === '/api/channels' }), // never answers
      ['--timeout-ms', '300'],
      /GET \S+\/api\/channels\?page=1&limit=100 got no answer within 300 ms \(--timeout-ms\)$/,
    ],
    [
      'a timeout while the answer is being read',
      account({
        templates: 3,
        override: (url, res) => {
          if (url.pathname !== '/api/channels') return false;
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('[{"id": "'); // then nothing more
          return true;
        },
      }),
      ['--timeout-ms', '300'],
      /GET \S+\/api\/channels\?page=1&limit=100 did not finish its answer within 300 ms \(--timeout-ms\)$/,
    ],
    [
      'a page that is not JSON',
      account({
        templates: 250,
        override: (url, res) => {
          if (url.pathname !== '/api/templates' || url.searchParams.get('page') !== '2') return false;
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end('<html><body>Bad gateway</body></html>');
          return true;
        },
      }),
      [],
      re(
        String.raw`GET \S+/api/templates\?page=2&limit=100 answered 200 with a body that is not JSON `,
        String.raw`\(text/html: "<html><body>Bad gateway</body></html>"\)$`,
      ),
    ],
    [
      'a list that is not an array',
      account({
        templates: 3,
        override: (url, res) => {
          if (url.pathname !== '/api/channels') return false;
          json(res, 200, { data: [CHANNEL] });
          return true;
        },
      }),
      [],
      /GET \S+\/api\/channels \(page 1\) answered an object where a JSON array was expected$/,
    ],
    [
      'a template the fixtures cannot hold',
      account({
        templates: 3,
        override: (url, res) => {
          if (url.pathname !== '/api/templates') return false;
          json(res, 200, [template(1), { ...template(2), status: 'live' }]);
          return true;
        },
      }),
      [],
      re(
        String.raw`GET \S+/api/templates: item 1: field "status": `,
        String.raw`Invalid option: expected one of "draft"\|"approved"\|"archived"$`,
      ),
    ],
    [
      'data the emulator would not load (a channel id that is not 24 hex)',
      account({
        templates: 2,
        override: (url, res) => {
          if (url.pathname !== '/api/channels') return false;
          json(res, 200, [CHANNEL, { ...CHANNEL, id: 'inbox-2', key: 'inbox-2' }]);
          return true;
        },
      }),
      [],
      re(
        String.raw`failed: the pulled fixtures would not load \(channels\.json: field "1\.id": `,
        String.raw`must be 24 lowercase hex characters; and \d+ more\); nothing written$`,
      ),
    ],
    [
      'data that holds the key',
      account({
        templates: 2,
        override: (url, res) => {
          if (url.searchParams.get('templateId') !== idOf(2)) return false;
          json(res, 200, [{ ...row(idOf(2)), content: { title: `key: ${LIVE_KEY}` } }]);
          return true;
        },
      }),
      [],
      /failed: the account's data for templates\/t-002\.json contains the API key; nothing written$/,
    ],
    [
      'a server error midway (rows of the 120th template)',
      account({
        templates: 150,
        override: (url, res) => {
          if (url.searchParams.get('templateId') !== idOf(120)) return false;
          json(res, 500, { error: { code: 'ERR_OPERATION_FAILED', message: 'The operation failed.' } });
          return true;
        },
      }),
      [],
      re(
        String.raw`GET \S+/api/template-channels\?templateId=0+78&page=1&limit=100 `,
        String.raw`answered 500 ERR_OPERATION_FAILED: The operation failed\.$`,
      ),
    ],
    [
      'a connection dropped midway',
      account({
        templates: 150,
        override: (url, res) => {
          if (url.searchParams.get('templateId') !== idOf(60)) return false;
          res.socket?.destroy();
          return true;
        },
      }),
      [],
      /GET \S+\/api\/template-channels\?templateId=0+3c&page=1&limit=100 failed on the network: /,
    ],
    [
      'a connection lost while the answer is being read',
      account({
        templates: 3,
        override: (url, res) => {
          if (url.pathname !== '/api/channels') return false;
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
          res.write('[{"id": "', () => res.socket?.destroy());
          return true;
        },
      }),
      [],
      /GET \S+\/api\/channels\?page=1&limit=100 lost the connection while reading the answer: /,
    ],
    [
      'a count that is not a number',
      account({
        templates: 3,
        override: (url, res) => {
          if (url.pathname !== '/api/templates') return false;
          json(res, 200, [template(1)], { 'x-total-count': 'lots' });
          return true;
        },
      }),
      [],
      /GET \S+\/api\/templates \(page 1\): X-Total-Count "lots" is not a count$/,
    ],
    [
      'an error page from a proxy (not the envelope)',
      account({
        templates: 3,
        override: (url, res) => {
          if (url.pathname !== '/api/channels') return false;
          res.writeHead(502, { 'content-type': 'text/html' });
          res.end('<html>\n<body>Bad   gateway</body>\n</html>');
          return true;
        },
      }),
      [],
      /GET \S+\/api\/channels\?page=1&limit=100 answered 502: <html> <body>Bad gateway<\/body> <\/html>$/,
    ],
    [
      'a 403 whose JSON is not the envelope',
      account({
        templates: 3,
        override: (url, res) => {
          if (url.pathname !== '/api/channels') return false;
          json(res, 403, { error: 'forbidden' });
          return true;
        },
      }),
      [],
      re(
        String.raw`GET \S+/api/channels\?page=1&limit=100 answered 403: \{"error":"forbidden"\} `,
        String.raw`\(the API key has no access to this\)$`,
      ),
    ],
  ];

  it.each(cases)('%s', async (name, h, extra, message) => {
    handler = h;
    const out = existingOut(name.replace(/\W+/g, '-'));
    const before = folderSnapshot(out);
    const argv = args(out);
    if (extra[0] === '--app-id') argv[1] = extra[1]!;
    else argv.push(...extra);
    const res = await pull(argv);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    const lines = res.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^notification-emulator pull: failed: /);
    expect(lines[0]).toMatch(message);
    expect(folderSnapshot(out)).toEqual(before);
  });

  it('a network error (nothing listening) is one line too', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const out = existingOut('refused');
    const before = folderSnapshot(out);
    const res = await pull(['--app-id', 'shop', '--base-url', `http://127.0.0.1:${port}`, '--out', out]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^notification-emulator pull: failed: GET \S+ failed on the network: ECONNREFUSED.*\n$/);
    expect(folderSnapshot(out)).toEqual(before);
  });

  it('check-fixtures fails the same way, in one line', async () => {
    handler = account({ templates: 3, override: (url) => url.pathname === '/api/templates' });
    const dir = existingOut('check-timeout');
    const res = await checkFixtures(['--app-id', 'shop', '--base-url', base, '--fixtures', dir, '--timeout-ms', '200']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(
      re(
        String.raw`^notification-emulator check-fixtures: failed: GET \S+/api/templates\?page=1&limit=100 `,
        String.raw`got no answer within 200 ms \(--timeout-ms\)\n$`,
      ),
    );
  });
});

describe('a folder that cannot be written', () => {
  it('fails in one line after every read succeeded', async () => {
    handler = account({ templates: 2 });
    const blocker = join(root, 'a-file');
    writeFileSync(blocker, 'not a folder\n');
    const res = await pull(args(join(blocker, 'fixtures')));
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^notification-emulator pull: failed: cannot write \S+a-file\/fixtures: ENOTDIR.*\n$/);
    expect(res.stdout).toBe('');
  });
});

describe('bad numbers', () => {
  it('refuses them with exit 2 before any request', async () => {
    handler = account({ templates: 2 });
    for (const [flag, value] of [
      ['--timeout-ms', '0'],
      ['--timeout-ms', 'soon'],
      ['--max-retries', '11'],
      ['--max-retries', '1e0'],
    ] as const) {
      const res = await pull(args(join(root, 'never'), flag, value));
      expect(res.code).toBe(2);
      expect(res.stderr).toContain(`${flag} must be a whole number`);
    }
    expect(requests).toEqual([]);
  });
});

describe('an older server without template-channel rows', () => {
  it('takes the content from the template objects and says so', async () => {
    handler = account({
      templates: 2,
      override: (url, res) => {
        if (url.pathname === '/api/template-channels') {
          json(res, 404, { error: { code: 'ERR_NOT_FOUND', message: 'no route' } });
          return true;
        }
        if (url.pathname !== '/api/templates') return false;
        json(res, 200, [{ ...template(1), content: { in_app: { title: 'From the template' } } }]);
        return true;
      },
    });
    const out = join(root, 'no-rows');
    const res = await pull(args(out));
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('the server has no /api/template-channels endpoint (404)');
    expect(folderSnapshot(out)['templates/t-001.json']!.text).toContain('From the template');
  });
});

describe('what fixtures cannot hold', () => {
  it('leaves out links and rows that name no channel of the account, or repeat one, with a warning each', async () => {
    const [ghost, stray] = ['e'.repeat(24), 'f'.repeat(24)];
    handler = account({
      templates: 2,
      override: (url, res) => {
        if (url.pathname === '/api/templates') {
          json(
            res,
            200,
            [
              { ...template(1), channelIds: [CHANNEL.id, ghost] },
              { ...template(2), channelIds: [] },
            ],
            {
              'x-total-count': '2',
            },
          );
          return true;
        }
        if (url.pathname !== '/api/template-channels') return false;
        const id = url.searchParams.get('templateId')!;
        json(
          res,
          200,
          id === idOf(1) ? [row(id), { ...row(id), content: { title: 'again' } }] : [{ ...row(id), channelId: stray }],
        );
        return true;
      },
    });
    const out = join(root, 'cannot-hold');
    const res = await pull(args(out));
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(
      `template "t-001": linked channel ${ghost} is not among the account's channels; left out`,
    );
    expect(res.stderr).toContain(
      `template "t-001": the row of channel ${CHANNEL.id} is left out ` +
        '(the template is not linked to that channel, or it has two rows for it)',
    );
    expect(res.stderr).toContain(
      `template "t-002": the row of channel ${stray} names no channel of the account; left out`,
    );
    const written = (file: string) => JSON.parse(folderSnapshot(out)[`templates/${file}`]!.text) as unknown;
    // The first row of a channel is kept, as the emulator would serve it.
    expect(written('t-001.json')).toMatchObject({
      channelIds: [CHANNEL.id],
      rows: [{ channelId: CHANNEL.id, content: row(idOf(1)).content }],
    });
    expect(written('t-002.json')).toMatchObject({ rows: [] });
  });
});

describe('the key', () => {
  it('is masked where it stands alone when it is short, and words around it are left whole', async () => {
    handler = account({ templates: 3 });
    for (const key of ['k', 'n.*']) {
      const res = await pull(args(join(root, 'short-key')), { EMULATOR_PULL_API_KEY: key });
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(
        'answered 401 ERR_UNAUTHORIZED: unknown key *** (check the app id and the API key)\n',
      );
    }
  });

  it('when short, does not stop a pull whose data holds the same letters inside words', async () => {
    handler = account({ templates: 3, key: 'k' });
    const res = await pull(args(join(root, 'short-key-pull', 'fixtures')), { EMULATOR_PULL_API_KEY: 'k' });
    expect([res.code, res.stdout]).toEqual([0, expect.stringContaining('pull: wrote 3 template(s)')]);
  });

  it('appears in no output and no file', () => {
    const leaks = [...printed.slice(FIRST_PRINTED), ...allFileTexts([root])].filter((text) => text.includes(LIVE_KEY));
    expect(leaks).toEqual([]);
  });
});
