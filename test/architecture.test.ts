/**
 * The layers of src/ and where time and randomness may come from, checked by reading the
 * sources. Which layer may import which, and which packages a layer may use, is data: the two
 * tables of CONTRIBUTING.md#layers, read here, so the document and the check cannot disagree.
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
const stripComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/** The rows of the table after `<!-- marker -->` in CONTRIBUTING.md: the `code` spans of each row's first two cells. */
function tableAfter(marker: string): [string[], string[]][] {
  const text = readFileSync(join(process.cwd(), 'CONTRIBUTING.md'), 'utf8');
  const start = text.indexOf(`<!-- ${marker} -->`);
  if (start < 0) throw new Error(`CONTRIBUTING.md has no <!-- ${marker} --> table`);
  const lines = text.slice(start).split('\n').slice(1);
  // The table runs to its first line that is not a row; its header and rule are skipped.
  const rows = lines.slice(
    2,
    lines.findIndex((line) => !line.startsWith('|')),
  );
  const spans = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  return rows.map((row) => {
    const cells = row.split('|').slice(1, -1);
    return [spans(cells[0]!), spans(cells[1]!)];
  });
}

/** Layer → the layers it may import besides itself (`*`: any). */
const MAY_IMPORT = new Map(
  tableAfter('import-table').flatMap(([layers, allowed]) => layers.map((layer) => [layer, allowed] as const)),
);
/** A path's top folder as `name/`, or a top-level file as `name.ts`: every one of them is a layer. */
const topLayerOf = (path: string) => (path.includes('/') ? `${path.split('/')[0]}/` : path);
/**
 * The layer of a path under src/: the longest row of the import table that is the path itself
 * or a folder holding it (`store/deliveries/` inside `store/`), else its top folder or file.
 */
function layerOf(path: string): string {
  let layer = topLayerOf(path);
  for (const row of MAY_IMPORT.keys())
    if ((row === path || (row.endsWith('/') && path.startsWith(row))) && row.length > layer.length) layer = row;
  return layer;
}
/** The layer an import lands in, or null for a package. */
const targetLayer = (file: string, spec: string): string | null =>
  spec.startsWith('.') ? layerOf(rel(join(file, '..', spec)).replace(/\.js$/, '.ts')) : null;
/** The folders of a layer split into rows of their own (`store/`), each with the subfolders its files sit in. */
function nestedFolders(): Map<string, Set<string>> {
  const nested = new Map<string, Set<string>>();
  for (const row of MAY_IMPORT.keys()) {
    const top = topLayerOf(row);
    if (row !== top) nested.set(top, new Set());
  }
  for (const file of files) {
    const parts = rel(file).split('/');
    const folders = nested.get(`${parts[0]}/`);
    if (folders && parts.length > 2) folders.add(`${parts[0]}/${parts[1]}/`);
  }
  return nested;
}
/** Package (a name, or a prefix ending in `…`) → the only layers that may import it. */
const PACKAGE_LAYERS = tableAfter('package-table').flatMap(([names, layers]) => names.map((n) => [n, layers] as const));
const packageMatches = (name: string, spec: string) =>
  name.endsWith('…') ? spec.startsWith(name.slice(0, -1)) : spec === name || spec.startsWith(`${name}/`);

describe('architecture (CONTRIBUTING.md#layers)', () => {
  it('the import table has one row for each folder and top-level file of src/, and no other', () => {
    const layers = [...new Set(files.map((f) => layerOf(rel(f))))].sort();
    expect([...MAY_IMPORT.keys()].sort()).toEqual(layers);
    for (const top of new Set(files.map((f) => topLayerOf(rel(f))))) expect(layers, `${top} has a row`).toContain(top);
    for (const allowed of MAY_IMPORT.values())
      for (const layer of allowed) if (layer !== '*') expect(layers, `${layer} in the table`).toContain(layer);
  });

  it('a folder split into layers has a row for each of its subfolders', () => {
    const rows = [...MAY_IMPORT.keys()];
    for (const [top, folders] of nestedFolders())
      for (const folder of folders) expect(rows, `${folder} (inside ${top}) has a row`).toContain(folder);
  });

  it('the import table has no cycle: the layers stay a hierarchy', () => {
    const visiting = new Set<string>();
    const done = new Set<string>();
    const cycles: string[] = [];
    const visit = (layer: string, path: string[]) => {
      if (done.has(layer)) return;
      if (visiting.has(layer)) return void cycles.push([...path, layer].join(' → '));
      visiting.add(layer);
      for (const next of MAY_IMPORT.get(layer) ?? []) if (next !== '*') visit(next, [...path, layer]);
      visiting.delete(layer);
      done.add(layer);
    };
    for (const layer of MAY_IMPORT.keys()) visit(layer, []);
    expect(cycles).toEqual([]);
  });

  it('no file of src/ imports itself around a loop of other files', () => {
    const targets = (file: string) =>
      importsOf(file)
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => join(file, '..', spec).replace(/\.js$/, '.ts'));
    const visiting = new Set<string>();
    const done = new Set<string>();
    const cycles: string[] = [];
    const visit = (file: string, path: string[]) => {
      if (done.has(file)) return;
      if (visiting.has(file)) return void cycles.push([...path.slice(path.indexOf(file)), file].map(rel).join(' → '));
      visiting.add(file);
      for (const next of targets(file)) if (files.includes(next)) visit(next, [...path, file]);
      visiting.delete(file);
      done.add(file);
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it('every import between layers is one the import table allows', () => {
    const bad: string[] = [];
    for (const file of files) {
      const from = layerOf(rel(file));
      const allowed = MAY_IMPORT.get(from) ?? [];
      for (const spec of importsOf(file)) {
        const to = targetLayer(file, spec);
        if (to !== null && to !== from && !allowed.includes('*') && !allowed.includes(to))
          bad.push(`${rel(file)} imports ${spec} (${from} may not import ${to})`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('packages of the package table are imported only by the layers it lists', () => {
    const bad: string[] = [];
    for (const file of files) {
      const layer = layerOf(rel(file));
      for (const spec of importsOf(file)) {
        const rule = PACKAGE_LAYERS.find(([name]) => packageMatches(name, spec));
        if (rule && !rule[1].includes(layer)) bad.push(`${rel(file)} imports ${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('src/schemas imports only zod and itself', () => {
    const bad: string[] = [];
    for (const file of files.filter((f) => rel(f).startsWith('schemas/'))) {
      for (const spec of importsOf(file)) {
        if (targetLayer(file, spec) === null && spec !== 'zod' && !spec.startsWith('zod/'))
          bad.push(`${rel(file)} imports ${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('an ApiError is made only by the factories of src/domain/errors.ts and error-messages.ts', () => {
    const makers = ['domain/errors.ts', 'domain/error-messages.ts'];
    const bad = files
      .filter((f) => !makers.includes(rel(f)) && /\bnew ApiError\s*\(/.test(stripComments(readFileSync(f, 'utf8'))))
      .map(rel);
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

  it('the checks see the files and the tables they check', () => {
    expect(files.some((f) => rel(f) === 'domain/notifications.ts')).toBe(true);
    const notifications = join(SRC, 'domain', 'notifications.ts');
    expect(importsOf(notifications)).toContain('./variables.js');
    expect(targetLayer(notifications, '../schemas/records.js')).toBe('schemas/');
    expect(targetLayer(join(SRC, 'app.ts'), './emulator.js')).toBe('emulator.ts');
    const log = join(SRC, 'store', 'deliveries', 'delivery-log.ts');
    expect(targetLayer(log, '../common/deque.js')).toBe('store/common/');
    expect(targetLayer(log, '../store-data.js')).toBe('store/store-data.ts');
    expect(targetLayer(log, '../memory-store.js')).toBe('store/');
    expect(nestedFolders().get('store/')).toContain('store/deliveries/');
    expect(MAY_IMPORT.get('domain/')).toEqual(['schemas/']);
    expect(PACKAGE_LAYERS.some(([name, layers]) => name === 'hono' && layers.includes('http/'))).toBe(true);
    expect(packageMatches('node:…', 'node:fs')).toBe(true);
    expect(packageMatches('hono', 'hono/body-limit')).toBe(true);
    expect(packageMatches('hono', 'honolulu')).toBe(false);
  });
});

describe('test files that share a module graph (vitest.config.ts)', () => {
  const TEST = join(process.cwd(), 'test');
  const testFiles = (readdirSync(TEST, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => `test/${f.split('\\').join('/')}`);
  /** What a file must not do while it shares its workers' modules with other files. */
  const PATCHES_GLOBALS = /\bvi\.(mock|doMock|stubGlobal|stubEnv)\(|process\.env(\.\w+|\[[^\]]+\])\s*=[^=]/;
  const config = readFileSync(join(process.cwd(), 'vitest.config.ts'), 'utf8');
  const isolated = [.../const ISOLATED_TESTS = \[([^\]]*)\]/.exec(config)![1]!.matchAll(/'([^']+)'/g)].map((m) => m[1]);

  it('a file that mocks a module, stubs a global or writes process.env is in ISOLATED_TESTS', () => {
    const patching = testFiles.filter((file) => PATCHES_GLOBALS.test(stripComments(readFileSync(file, 'utf8'))));
    expect(patching.filter((file) => !isolated.includes(file))).toEqual([]);
    expect(patching).toContain('test/http/watch-errors.test.ts');
  });
});
