#!/usr/bin/env node
/**
 * The command (package.json "bin"). Installed from a tarball it just loads the bundle. Run from
 * a checkout (`npx notification-emulator` there, or a project that installed the checkout's
 * folder) dist/ may not be built yet or be older than the sources: it is built first, said on
 * one line. The checkout is told apart by its build scripts, which the package does not ship.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const stamp = new URL('../scripts/build-stamp.mjs', import.meta.url);
if (existsSync(stamp)) {
  const { ensureBuilt } = await import(stamp.href);
  const status = ensureBuilt(fileURLToPath(new URL('..', import.meta.url)));
  if (status !== 0) process.exit(status);
}
await import('../dist/cli.js');
