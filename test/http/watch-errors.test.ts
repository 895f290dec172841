/**
 * A folder the emulator cannot watch (on Linux, most often the inotify watch limit) is
 * said once per folder in the log, and the emulator runs on without reloading it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';
import { createApp } from '../../src/index.js';
import { call } from '../helpers/app.js';

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const watch = () => {
    throw Object.assign(new Error('ENOSPC: System limit for number of file watchers reached'), { code: 'ENOSPC' });
  };
  return { ...fs, default: { ...fs, watch }, watch };
});

const dir = mkdtempSync(join(tmpdir(), 'emu-watch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('warns once per folder it cannot watch, and still serves', async () => {
  const fixtures = join(dir, 'fixtures');
  mkdirSync(join(fixtures, 'templates'), { recursive: true });
  writeFileSync(
    join(fixtures, 'templates', 'a.json'),
    JSON.stringify({ key: 'a', content: { in_app: { title: 'A' } } }),
  );
  writeFileSync(join(fixtures, 'apps.json'), JSON.stringify([{ appId: 'app-a', apiKey: 'key' }]));
  const scenarios = join(dir, 'scenarios');
  mkdirSync(scenarios);
  const warnings: string[] = [];
  // The empty scenarios folder is warned about too; only the watch warnings count here.
  const logger = {
    error() {},
    warn: (m: string) => (m.startsWith('cannot watch') ? warnings.push(m) : undefined),
    info() {},
    debug() {},
  };
  const app = createApp({ fixturesDir: fixtures, scenariosDir: scenarios, watch: true, logger });
  try {
    const watched = [join(fixtures, 'templates'), fixtures, scenarios];
    expect(warnings).toHaveLength(watched.length);
    for (const [i, folder] of watched.entries()) {
      expect(warnings[i]).toBe(
        `cannot watch ${folder} for changes (ENOSPC: System limit for number of file watchers reached): edits ` +
          `there take effect after a restart. On Linux, raise fs.inotify.max_user_watches when the limit is ` +
          `reached; --no-watch silences this.`,
      );
    }
    expect((await call(app, 'GET', '/__health')).body).toMatchObject({ templates: 1, auth: 'strict' });
  } finally {
    await app.close();
  }
});
