/**
 * makeFolder (src/platform/make-folder.ts): missing parents made one level at a time, and an
 * error, not an endless loop, where a folder cannot be made.
 */
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeFolder } from '../../src/platform/make-folder.js';

const dir = mkdtempSync(join(tmpdir(), 'emu-folder-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('makeFolder', () => {
  it('makes a folder and its missing parents, and leaves an existing one alone', () => {
    const deep = join(dir, 'a', 'b', 'c');
    makeFolder(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
    makeFolder(deep);
    makeFolder(dir);
    expect(existsSync(deep)).toBe(true);
  });

  it('throws the system error where a parent is a file', () => {
    const file = join(dir, 'file');
    makeFolder(dir);
    writeFileSync(file, 'x');
    expect(() => makeFolder(join(file, 'sub'))).toThrow(/ENOTDIR|EEXIST/);
  });

  it.skipIf(!existsSync('/proc/self'))('throws ENOENT under /proc, where a recursive mkdir loops for ever', () => {
    expect(() => makeFolder('/proc/no-such-folder/deeper')).toThrow(/ENOENT/);
  });
});
