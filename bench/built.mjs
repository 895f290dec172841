// The build a bench server measures, as every server of the bench does: dist/, or another
// copy with BENCH_DIST=path (relative to the project), so that two builds are compared in turn.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** A module of that build, e.g. built('index.js'). */
export const built = (file) =>
  import(pathToFileURL(resolve(import.meta.dirname, '..', process.env.BENCH_DIST ?? 'dist', file)).href);
