/**
 * docs/client.md's generated-client recipe, run as a reader pastes it: the project's own
 * openapi-typescript generates types from a running emulator's /__openapi.json with the
 * guide's command, and the guide's snippet typechecks against them under `tsc --strict`
 * with the project's own TypeScript and openapi-fetch. The versions the guide names are the
 * ones installed here.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/index.js';
import { blockWith } from '../helpers/markdown.js';

const run = promisify(execFile);
const GUIDE = 'docs/client.md';
// Inside the repo so the snippet resolves openapi-fetch from node_modules; ignored by git and prettier.
const DIR = join(fileURLToPath(new URL('.', import.meta.url)), `client-tmp-guide-${process.pid}`);
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const installed = (name: string) =>
  (JSON.parse(readFileSync(`node_modules/${name}/package.json`, 'utf8')) as { version: string }).version;
const majorMinor = (version: string) => version.split('.').slice(0, 2).join('.');

describe("the client guide's generated-client recipe", () => {
  const commands = blockWith(GUIDE, 'sh', 'openapi-typescript').trim().split('\n');

  it('pins the versions the project uses, and names them in the text', () => {
    expect(commands[0]).toBe(
      `npm i -D openapi-typescript@${installed('openapi-typescript').split('.')[0]} ` +
        `openapi-fetch@${majorMinor(installed('openapi-fetch'))} typescript@${majorMinor(installed('typescript'))}`,
    );
    const prose = readFileSync(GUIDE, 'utf8').replace(/\s+/g, ' ');
    expect(prose).toContain(
      `openapi-typescript ${majorMinor(installed('openapi-typescript'))}, openapi-fetch ` +
        `${majorMinor(installed('openapi-fetch'))} and TypeScript ${majorMinor(installed('typescript'))}`,
    );
  });

  it('generates types from a running emulator, and the snippet passes tsc --strict', async () => {
    const generate = commands[1]!;
    expect(generate).toMatch(
      /^npx openapi-typescript http:\/\/127\.0\.0\.1:4010\/__openapi\.json -o emulator-api\.d\.ts$/,
    );
    mkdirSync(DIR, { recursive: true });
    writeFileSync(join(DIR, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(join(DIR, 'send.ts'), blockWith(GUIDE, 'ts', "from 'openapi-fetch'"));

    const emulator = await startEmulator({ port: 0, templates: [], watch: false, logLevel: 'silent' });
    try {
      const args = generate.replace('http://127.0.0.1:4010', emulator.url).split(' ').slice(2);
      const cli = join(process.cwd(), 'node_modules/openapi-typescript/bin/cli.js');
      await run(process.execPath, [cli, ...args], { cwd: DIR });
    } finally {
      await emulator.close();
    }
    expect(readFileSync(join(DIR, 'emulator-api.d.ts'), 'utf8')).toContain('"/api/notifications/send"');

    const tsc = join(process.cwd(), 'node_modules/typescript/bin/tsc');
    const checked = await run(
      process.execPath,
      [tsc, '--strict', '--noEmit', '--module', 'nodenext', '--target', 'es2022', 'send.ts'],
      { cwd: DIR },
    ).then(
      () => '',
      (error: { stdout: string }) => error.stdout,
    );
    expect(checked).toBe('');
  }, 240_000); // two compilers in child processes: ~15 s on an idle machine, much more on a busy one
});
