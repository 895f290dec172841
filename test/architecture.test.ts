/**
 * design.md §4.2: the dependency direction and where time and randomness may come from,
 * checked by reading the sources.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(process.cwd(), 'src');
const files = (readdirSync(SRC, { recursive: true }) as string[])
  .filter((f) => f.endsWith('.ts'))
  .map((f) => join(SRC, f));
const rel = (file: string) => relative(SRC, file).split('\\').join('/');
const importsOf = (file: string) =>
  [
    ...readFileSync(file, 'utf8').matchAll(
      /(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g,
    ),
  ].map((m) => (m[1] ?? m[2])!);
/** The src/ folder an import lands in ('' for a top-level file), or null for a package. */
const folderOf = (file: string, spec: string): string | null => {
  if (!spec.startsWith('.')) return null;
  const target = rel(join(file, '..', spec));
  return target.includes('/') ? target.split('/')[0]! : '';
};
const stripComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

describe('architecture (design.md §4.2)', () => {
  it('src/domain imports no hono, node:*, lowdb, faker, nor src folders other than schemas', () => {
    const bad: string[] = [];
    for (const file of files.filter((f) => rel(f).startsWith('domain/'))) {
      for (const spec of importsOf(file)) {
        const folder = folderOf(file, spec);
        const forbiddenPackage = folder === null && /^(hono|@hono\/|node:|lowdb|@faker-js\/faker)/.test(spec);
        const forbiddenFolder = folder !== null && folder !== 'domain' && folder !== 'schemas';
        if (forbiddenPackage || forbiddenFolder) bad.push(`${rel(file)} imports ${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('src/schemas imports only zod and itself', () => {
    const bad: string[] = [];
    for (const file of files.filter((f) => rel(f).startsWith('schemas/'))) {
      for (const spec of importsOf(file)) {
        const folder = folderOf(file, spec);
        if (folder === null ? spec !== 'zod' && !spec.startsWith('zod/') : folder !== 'schemas')
          bad.push(`${rel(file)} imports ${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('Date.now(), Math.random() and new Date() without argument appear only in src/platform', () => {
    const bad: string[] = [];
    for (const file of files.filter((f) => !rel(f).startsWith('platform/'))) {
      const text = stripComments(readFileSync(file, 'utf8'));
      for (const pattern of [
        /\bDate\.now\s*\(/,
        /\bMath\.random\s*\(/,
        /\bnew Date\s*\(\s*\)/,
        /\bnew Date\b(?!\s*\()/,
      ]) {
        if (pattern.test(text)) bad.push(`${rel(file)}: ${pattern.source}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('the checks see the files they check', () => {
    expect(files.some((f) => rel(f) === 'domain/notifications.ts')).toBe(true);
    expect(importsOf(join(SRC, 'domain', 'notifications.ts'))).toContain('./variables.js');
  });
});
