/**
 * A lowdb adapter that writes a large document without holding the event loop: the JSON
 * text is built record by record in slices of a few milliseconds, with a turn of the event
 * loop between slices, and streamed to a temporary file that is then renamed over the data
 * file. A reader (or a kill -9 at any moment) sees the previous whole file or the new one.
 */
import { open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';

/** A document to write: plain values, and lists given as iterables (read while writing). */
export type Snapshot = Record<string, unknown>;

/** Work per slice before yielding to the event loop. */
const SLICE_MS = 8;
/** How often (in records) the slice's clock is read. */
const CHECK_EVERY = 64;
/** Text gathered before one write to the file. */
const FLUSH_CHARS = 1 << 20;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class SlicedJsonFile<T extends Snapshot> implements Adapter<T> {
  readonly #file: string;
  readonly #temp: string;
  readonly #sliceMs: number;

  constructor(file: string, options: { sliceMs?: number } = {}) {
    this.#file = file;
    this.#temp = join(dirname(file), `.${basename(file)}.tmp`);
    this.#sliceMs = options.sliceMs ?? SLICE_MS;
  }

  async read(): Promise<T | null> {
    let text: string;
    try {
      text = await readFile(this.#file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    // An empty file (`touch state.json`) holds no records to lose: read as a new one.
    return text.trim() === '' ? null : (JSON.parse(text) as T);
  }

  async write(data: T): Promise<void> {
    const handle = await open(this.#temp, 'w');
    try {
      let pending: string[] = [];
      let pendingChars = 0;
      let sliceStarted = performance.now();
      let sinceCheck = 0;
      const put = async (text: string) => {
        pending.push(text);
        pendingChars += text.length;
        if (pendingChars >= FLUSH_CHARS) {
          const chunk = pending.join('');
          pending = [];
          pendingChars = 0;
          await handle.write(chunk);
        }
        if (++sinceCheck >= CHECK_EVERY) {
          sinceCheck = 0;
          if (performance.now() - sliceStarted >= this.#sliceMs) {
            await nextTurn();
            sliceStarted = performance.now();
          }
        }
      };
      let first = true;
      await put('{');
      for (const [key, value] of Object.entries(data)) {
        await put(`${first ? '' : ','}${JSON.stringify(key)}:`);
        first = false;
        if (isList(value)) {
          await put('[');
          let firstItem = true;
          for (const item of value) {
            await put(`${firstItem ? '' : ','}${JSON.stringify(item)}`);
            firstItem = false;
          }
          await put(']');
        } else await put(JSON.stringify(value) ?? 'null');
      }
      await put('}\n');
      if (pending.length > 0) await handle.write(pending.join(''));
      await handle.datasync();
    } catch (error) {
      await handle.close();
      await rm(this.#temp, { force: true });
      throw error;
    }
    await handle.close();
    await rename(this.#temp, this.#file);
  }
}

const isList = (value: unknown): value is Iterable<unknown> =>
  Array.isArray(value) ||
  (typeof value === 'object' && value !== null && typeof (value as Iterable<unknown>)[Symbol.iterator] === 'function');
