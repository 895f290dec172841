/**
 * The build: tsc emits dist/ (the library entry and its types), then esbuild bundles the CLI
 * over dist/cli.js. One file instead of ~150 ES modules takes about a third off the cold
 * start (bench/ "cold start"); lowdb and generate-csv stay separate chunks loaded on use.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
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
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
});
chmodSync(`${root}/dist/cli.js`, 0o755);
writeFileSync(`${root}/${STAMP}`, `${hash}\n`);
