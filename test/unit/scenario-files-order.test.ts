/**
 * A scenario folder is read in file-name order whatever order the file system lists it in
 * (many list a folder in the order of a hash or of creation): the first file of a name owns
 * it, and scenarios load, and are listed, in that order.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';
import { readScenarioDir } from '../../src/scenario-engine/load-scenarios.js';

// The folder listed backwards, as a file system that does not sort might.
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  return { ...fs, readdirSync: (dir: string) => [...fs.readdirSync(dir)].sort().reverse() };
});

const dir = mkdtempSync(join(tmpdir(), 'emu-scenario-order-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('reads the files in name order, not in the order the folder lists them', () => {
  const scenario = (name: string) => JSON.stringify({ name, rules: [{ fault: { status: 503 } }] });
  writeFileSync(join(dir, 'a.json'), scenario('alpha'));
  writeFileSync(join(dir, 'b.json'), scenario('same'));
  writeFileSync(join(dir, 'c.json'), scenario('same'));
  const { good, bad } = readScenarioDir(dir);
  expect([...good.keys()]).toEqual([join(dir, 'a.json'), join(dir, 'b.json')]);
  expect([...bad.keys()]).toEqual([join(dir, 'c.json')]);
});
