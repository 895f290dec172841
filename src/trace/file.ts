/**
 * Traces on disk: read line by line (a million deliveries never become one string), and
 * written to a temporary file beside the target then renamed over it, so the file is
 * either the whole previous one or the whole new one, never half a trace.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { makeFolder } from '../platform/make-folder.js';
import { readTrace, TraceProblem } from './read.js';
import type { Trace, TraceSource } from './schema.js';
import { traceChunks } from './write.js';

/** The trace in `file`, checked whole; a TraceProblem names what is wrong. */
export async function readTraceFile(file: string): Promise<Trace> {
  const input = createReadStream(resolve(file), { encoding: 'utf8' });
  const opened = new Promise<void>((done, fail) => {
    input.once('open', () => done());
    input.once('error', fail);
  });
  try {
    await opened;
  } catch (error) {
    throw new TraceProblem([`${file} cannot be read (${(error as Error).message})`]);
  }
  try {
    return await readTrace(createInterface({ input, crlfDelay: Infinity }));
  } catch (error) {
    if (error instanceof TraceProblem) throw new TraceProblem(error.problems.map((p) => `${file}: ${p}`));
    throw error;
  } finally {
    input.destroy();
  }
}

/** Writes the trace to `file` atomically (temp file in the same folder, then rename), its folder made if missing. */
export async function writeTraceFile(file: string, source: TraceSource): Promise<void> {
  const target = resolve(file);
  makeFolder(dirname(target));
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
  const output = createWriteStream(temp, { encoding: 'utf8' });
  try {
    for await (const chunk of traceChunks(source)) if (!output.write(chunk)) await once(output, 'drain');
    output.end();
    await once(output, 'finish');
    await rename(temp, target);
  } catch (error) {
    output.destroy();
    await rm(temp, { force: true });
    throw error;
  }
}
