/**
 * The build: tsc emits dist/ (the library entry and its types), then esbuild bundles the CLI
 * over dist/cli.js. One file instead of ~150 ES modules takes about a third off the cold
 * start (bench/ "cold start"); lowdb and generate-csv stay separate chunks loaded on use.
 * Last, the web inspector (web/) is bundled into dist/ui: hashed, minified assets and an
 * index.html naming them (served at /__/).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { sourceHash, STAMP } from './build-stamp.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// Hashed before building: an edit made while the build runs leaves the stamp stale, not wrong.
const hash = sourceHash(root);
rmSync(`${root}/${STAMP}`, { force: true });
const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
  cwd: root,
  stdio: 'inherit',
});
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
rmSync(`${root}/dist/chunks`, { recursive: true, force: true }); // hashed names: old ones would pile up
await build({
  absWorkingDir: root,
  entryPoints: ['src/cli.ts'],
  outdir: 'dist',
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  allowOverwrite: true,
  logLevel: 'warning',
  // Bundled CommonJS dependencies call require(); ESM output has none of its own.
  banner: {
    js:
      "import { createRequire as __createRequire } from 'node:module'; " +
      'const require = __createRequire(import.meta.url);',
  },
});
chmodSync(`${root}/dist/cli.js`, 0o755);

rmSync(`${root}/dist/ui`, { recursive: true, force: true });
const ui = await build({
  absWorkingDir: root,
  entryPoints: { app: 'web/main.ts', style: 'web/style.css' },
  outdir: 'dist/ui/assets',
  entryNames: '[name]-[hash]',
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome110', 'firefox110', 'safari16'],
  metafile: true,
  logLevel: 'warning',
});
const outputs = Object.keys(ui.metafile.outputs).map((file) => basename(file));
const script = outputs.find((f) => f.startsWith('app-') && f.endsWith('.js'));
const style = outputs.find((f) => f.startsWith('style-') && f.endsWith('.css'));
mkdirSync(`${root}/dist/ui`, { recursive: true });
writeFileSync(
  `${root}/dist/ui/index.html`,
  readFileSync(`${root}/web/index.html`, 'utf8')
    .replace('%STYLE%', `/__/assets/${style}`)
    .replace('%SCRIPT%', `/__/assets/${script}`),
);
writeFileSync(`${root}/${STAMP}`, `${hash}\n`);
