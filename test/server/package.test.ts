/**
 * The package as users get it: npm pack, install the tarball in an empty folder, run the
 * bin (--help, then start / health / SIGTERM) and import the entry. A file missing from
 * `files`, `bin` or `exports` fails here.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { blockWith, relativeLinks, userDocs } from '../helpers/markdown.js';
import { installPacked, npx } from '../helpers/packed.js';

const run = promisify(execFile);
const root = process.cwd();
let dir = '';
let project = '';
let installed = '';
/** What `npm i -D ./notification-emulator-<version>.tgz` printed on stderr (warnings would be here). */
let installWarnings = '';

beforeAll(async () => {
  ({ dir, project, installStderr: installWarnings } = await installPacked());
  installed = join(project, 'node_modules', 'notification-emulator');
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * `npx notification-emulator <args>` in the adopter's project, as its README tells; resolves
 * once stdout shows the address (`pattern`'s group), with a stop that waits for the exit.
 */
async function startCommand(args: string[], pattern = /listening on (http:\/\/\S+)/) {
  const child = spawn(npx, ['--no-install', 'notification-emulator', ...args], {
    cwd: project,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  let url: string | undefined;
  for await (const line of createInterface({ input: child.stdout })) {
    url = pattern.exec(line)?.[1];
    if (url) break;
  }
  expect(url, stderr).toBeDefined();
  return {
    url: url!,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

describe('the packed package', () => {
  it('ships dist, fixtures and the README, and no sources or tests', () => {
    const files = readdirSync(installed);
    expect(files).toEqual(expect.arrayContaining(['dist', 'fixtures', 'package.json', 'README.md']));
    expect(files).not.toContain('src');
    expect(files).not.toContain('test');
    expect(readdirSync(join(installed, 'fixtures', 'templates')).length).toBeGreaterThan(0);
    expect(statSync(join(installed, 'dist', 'index.d.ts')).isFile()).toBe(true);
  });

  it('ships the documents its Markdown links to (docs/reference.md and the rest), pictures aside', () => {
    const broken: string[] = [];
    const shipped = ['README.md', ...readdirSync(join(installed, 'docs')).map((name) => `docs/${name}`)];
    expect(shipped).toEqual(
      expect.arrayContaining(['docs/client.md', 'docs/reference.md', 'docs/fidelity.md', 'docs/performance.md']),
    );
    for (const file of shipped.filter((name) => name.endsWith('.md'))) {
      const markdown = readFileSync(join(installed, file), 'utf8');
      // Documents only: screenshots stay in the repository (a megabyte the installed package has no use for).
      const documents = relativeLinks(markdown)
        .map((target) => target.split('#')[0]!)
        .filter((path) => /\.(md|json)$/.test(path));
      for (const path of documents)
        if (!existsSync(join(installed, dirname(file), path))) broken.push(`${file} → ${path}`);
    }
    expect(broken).toEqual([]);
  });

  it('installs from the tarball without a warning (no install script in the published package)', () => {
    expect(installWarnings).toBe('');
    const pkg = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(Object.keys(pkg.scripts).filter((name) => /^(pre|post)?(install|prepare)$/.test(name))).toEqual([]);
    expect(
      (JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { devDependencies: object }).devDependencies,
    ).toEqual({ 'notification-emulator': expect.stringMatching(/^file:notification-emulator-.*\.tgz$/) });
  });

  it("is installed the way the README and the running guide say, with this version's tarball name", () => {
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    for (const file of ['README.md', 'docs/running.md']) {
      const block = blockWith(join(root, file), 'sh', 'npm pack');
      expect(block, file).toMatch(/^npm ci && npm pack\b/);
      expect(block, file).toContain(`\nnpm i -D ./notification-emulator-${version}.tgz`);
    }
    expect(readdirSync(project)).toContain(`notification-emulator-${version}.tgz`);
  });

  it('npx notification-emulator view opens a trace exported by the installed server', async () => {
    // The installed server, on a free port: one send, then its trace.
    const server = await startCommand(['--port', '0', '--no-watch', '--log-level', 'silent']);
    try {
      const send = await fetch(`${server.url}/api/notifications/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', appid: 'shop', apikey: 'key' },
        body: JSON.stringify({
          template: { key: 'welcome-message', variables: { name: 'Ada' } },
          targets: ['u1'],
          mode: 'realtime',
        }),
      });
      expect(send.status, await send.clone().text()).toBe(200);
      writeFileSync(join(project, 'trace.json'), await (await fetch(`${server.url}/__export`)).text());
    } finally {
      await server.stop();
    }

    const viewer = await startCommand(
      ['view', 'trace.json', '--no-watch', '--log-level', 'silent'],
      /^trace trace\.json opened; web inspector: (http:\/\/\S+)\/__\/$/,
    );
    try {
      const health = (await (await fetch(`${viewer.url}/__health`)).json()) as {
        status: string;
        trace: { fileName: string };
      };
      expect(health).toMatchObject({ status: 'ok', trace: { fileName: 'trace.json' } });
      const deliveries = (await (await fetch(`${viewer.url}/__inspect/deliveries?appId=shop`)).json()) as {
        total: number;
      };
      expect(deliveries.total).toBe(1);
      expect((await fetch(`${viewer.url}/__/`)).status).toBe(200);
    } finally {
      await viewer.stop();
    }
  });

  it('npx notification-emulator --help prints the usage', async () => {
    const { stdout } = await run(npx, ['--no-install', 'notification-emulator', '--help'], { cwd: project });
    expect(stdout).toMatch(/^notification-emulator: /);
    expect(stdout).toContain('--data-file FILE');
  });

  it('starts from the installed bin, answers /__health and stops on SIGTERM with exit code 0', async () => {
    const bin = join(project, 'node_modules', '.bin', 'notification-emulator');
    const child = spawn(
      bin,
      [
        '--port',
        '0',
        '--fixtures',
        join(installed, 'fixtures'),
        '--scenarios',
        join(installed, 'scenarios'),
        '--log-level',
        'silent',
        '--no-watch',
      ],
      {
        cwd: project,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      let url: string | undefined;
      for await (const line of createInterface({ input: child.stdout })) {
        url = /listening on (http:\/\/\S+)/.exec(line)?.[1];
        if (url) break;
      }
      expect(url, stderr).toBeDefined();
      const health = (await (await fetch(`${url}/__health`)).json()) as { status: string; templates: number };
      expect(health).toMatchObject({ status: 'ok', templates: expect.any(Number) });
      expect(health.templates).toBeGreaterThan(0);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('exposes startEmulator and createClient from the package entry', async () => {
    const script = [
      "import { startEmulator, createClient, createApp } from 'notification-emulator';",
      "const emu = await startEmulator({ port: 0, templates: [], watch: false, logLevel: 'silent' });",
      'const health = await createClient({ url: emu.url }).health();',
      'await emu.close();',
      'console.log(typeof createApp, health.status, typeof emu.inspect.deliveries);',
    ].join('\n');
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project });
    expect(stdout.trim()).toBe('function ok function');
  });

  it("runs the docs' server of your own (docs/client.md), the app served the ordinary Hono way", async () => {
    const docs = userDocs(installed).map((doc) => doc.text);
    const block = docs
      .map((text) => /```ts\n(import \{ createServer \} from 'node:http';[\s\S]*?)```/.exec(text)?.[1])
      .find((found) => found !== undefined);
    expect(block).toBeDefined();
    // The block listens on 4010; the test takes a free port and prints it.
    const script = block!.replace(
      '.listen(4010);',
      ".listen(0, '127.0.0.1', function () { console.log(`http://127.0.0.1:${this.address().port}`); });",
    );
    expect(script).not.toBe(block);
    writeFileSync(join(project, 'own-server.mjs'), script);
    const child = spawn(process.execPath, ['own-server.mjs'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      let url: string | undefined;
      for await (const line of createInterface({ input: child.stdout })) {
        url = /^(http:\/\/\S+)$/.exec(line)?.[1];
        if (url) break;
      }
      expect(url, stderr).toBeDefined();
      // No fixtures folder in the adopter's project: the send is refused, in the envelope, and journaled.
      const send = await fetch(`${url}/api/notifications/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', appid: 'shop', apikey: 'key' },
        body: JSON.stringify({ template: { key: 'welcome' }, targets: ['u1'], mode: 'realtime' }),
      });
      expect([send.status, ((await send.json()) as { error: { code: string } }).error.code]).toEqual([
        404,
        'ERR_NOT_FOUND',
      ]);
      const journal = (await (await fetch(`${url}/__inspect/requests`)).json()) as { items: { status: number }[] };
      expect(journal.items.map((entry) => entry.status)).toEqual([404]);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('npx notification-emulator --version prints the package version', async () => {
    const { stdout } = await run(npx, ['--no-install', 'notification-emulator', '--version'], { cwd: project });
    expect(stdout.trim()).toBe(
      (JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { version: string }).version,
    );
  });

  it('ships the example templates but never a fixtures/apps.json (a strict-auth file a user may have made)', () => {
    expect(readdirSync(join(installed, 'fixtures'))).toEqual(['templates']);
    const { files } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[] };
    expect(files).toContain('fixtures/templates');
    expect(files).not.toContain('fixtures');
  });

  it('without --fixtures or ./fixtures serves the bundled examples, says so; `kill <npx pid>` stops it', async () => {
    const child = spawn(npx, ['--no-install', 'notification-emulator', '--port', '0', '--no-watch'], {
      cwd: project,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    let url: string | undefined;
    for await (const line of createInterface({ input: child.stdout })) {
      url = /listening on (http:\/\/\S+)/.exec(line)?.[1];
      if (url) break;
    }
    expect(url, stderr).toBeDefined();
    const health = (await (await fetch(`${url}/__health`)).json()) as { templates: number };
    expect(health.templates).toBeGreaterThanOrEqual(5);
    await vi.waitFor(() => expect(stderr).toContain('the bundled examples: no ./fixtures here'), { timeout: 5000 });
    expect(stderr).toContain(join(installed, 'fixtures'));

    child.kill('SIGTERM'); // npx itself, as `kill $!` after `npx notification-emulator &` does
    await vi.waitFor(
      async () => {
        await expect(fetch(`${url}/__health`, { signal: AbortSignal.timeout(500) })).rejects.toThrow();
      },
      { timeout: 5000, interval: 100 },
    );
    await exited;
  });

  it('exits 2 when a named --fixtures or --scenarios folder does not exist', async () => {
    const bin = join(project, 'node_modules', '.bin', 'notification-emulator');
    for (const args of [
      ['--fixtures', 'my-fixtures'],
      ['--scenarios', 'my-scenarios'],
    ]) {
      const failure = await run(bin, ['--port', '0', ...args], { cwd: project }).then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failure?.code, args.join(' ')).toBe(2);
      expect(failure?.stderr).toContain(`the folder "${args[1]}" does not exist`);
    }
  });

  it('generate-csv finds the bundled templates without --fixtures', async () => {
    const bin = join(project, 'node_modules', '.bin', 'notification-emulator');
    const { stdout } = await run(bin, ['generate-csv', '--template', 'welcome-message', '--rows', '2', '--seed', '1'], {
      cwd: project,
    });
    expect(stdout.trim().split('\n')).toHaveLength(3);
    expect(stdout).toMatch(/^user_id,/);
  });
});
