/**
 * The Store persisted in a JSON file (--data-file, docs/reference.md#running-it): the memory store does the
 * work; every change schedules one coalesced write of its snapshot through lowdb.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Low } from 'lowdb';
import { makeFolder } from '../platform/make-folder.js';
import { ConfigError } from '../domain/errors.js';
import { createMemoryStore, type MemoryStore } from './memory-store.js';
import { emptyStoreData, type RetentionLimits, type StoreSnapshot } from './store-data.js';
import { checkDataFile, DATA_FILE_MARK, LEFT_UNTOUCHED } from './data-file-check.js';
import { SlicedJsonFile } from './sliced-json-file.js';

export interface LowdbStoreOptions extends RetentionLimits {
  /** Quiet time after the last change before writing. @default 250 */
  debounceMs?: number;
  /** Longest a change waits for its write under constant traffic. @default 1000 */
  maxWaitMs?: number;
  /** Called when a background write fails (a later write retries with the newest state). */
  onWriteError?: (error: unknown) => void;
}

/** The data file as written: its mark first, then the store's records. */
type MarkedSnapshot = typeof DATA_FILE_MARK & StoreSnapshot;

/** The data file opened and checked: refused whole (ConfigError naming the file) before anything is built from it. */
async function readDataFile(path: string, fresh: MarkedSnapshot) {
  // Built by hand: JSONFilePreset would silently switch to memory under NODE_ENV=test.
  // The adapter writes in slices between turns of the event loop, to a temp file then
  // renamed over the data file, so the file is always whole JSON and requests keep flowing.
  const db = new Low<MarkedSnapshot>(new SlicedJsonFile<MarkedSnapshot>(path), fresh);
  try {
    makeFolder(dirname(path));
  } catch (error) {
    throw new ConfigError([
      `--data-file ${path}: its folder cannot be created (${(error as Error).message}). Choose a path in a ` +
        `folder you can write to.`,
    ]);
  }
  try {
    await db.read();
  } catch (error) {
    const reason =
      error instanceof SyntaxError
        ? `it is not valid JSON (${error.message})`
        : `it cannot be read (${(error as Error).message})`;
    throw new ConfigError([`--data-file ${path}: ${reason}`, LEFT_UNTOUCHED]);
  }
  return { db, initial: checkDataFile(path, db.data) };
}

export async function openLowdbStore(file: string, options: LowdbStoreOptions = {}): Promise<MemoryStore> {
  const path = resolve(file);
  const debounceMs = options.debounceMs ?? 250;
  const maxWaitMs = options.maxWaitMs ?? 1000;
  const fresh: MarkedSnapshot = { ...DATA_FILE_MARK, ...emptyStoreData() };
  const { db, initial } = await readDataFile(path, fresh);

  let debounceTimer: NodeJS.Timeout | undefined;
  let maxWaitTimer: NodeJS.Timeout | undefined;
  let dirty = false;
  let writing: Promise<void> = Promise.resolve();

  function write(): Promise<void> {
    clearTimeout(debounceTimer);
    clearTimeout(maxWaitTimer);
    debounceTimer = maxWaitTimer = undefined;
    if (!dirty) return writing;
    dirty = false;
    db.data = { ...DATA_FILE_MARK, ...store.persistable() };
    // Chained: writes never overlap, and a flush waits for the one in flight.
    writing = writing.then(
      () => db.write(),
      () => db.write(),
    );
    return writing;
  }

  function background(): void {
    write().catch((error: unknown) => {
      dirty = true; // retried with the next change or flush
      options.onWriteError?.(error);
    });
  }

  // One timer, re-armed only when it fires: a 100,000-recipient campaign changes the store
  // 100,000 times, and clearing and setting a timer on each change showed up in profiles.
  let lastChange = 0;
  function onQuietTimer(): void {
    const quietFor = performance.now() - lastChange;
    if (quietFor >= debounceMs) return background();
    debounceTimer = setTimeout(onQuietTimer, debounceMs - quietFor);
    debounceTimer.unref();
  }

  function schedule(): void {
    dirty = true;
    lastChange = performance.now();
    if (!debounceTimer) {
      debounceTimer = setTimeout(onQuietTimer, debounceMs);
      debounceTimer.unref();
    }
    if (!maxWaitTimer) {
      maxWaitTimer = setTimeout(background, maxWaitMs);
      maxWaitTimer.unref();
    }
  }

  const { maxDeliveries, maxNotifications, maxJournal, maxCampaigns, maxRecipients, maxAnalyticsEvents } = options;
  const limits = { maxDeliveries, maxNotifications, maxJournal, maxCampaigns, maxRecipients, maxAnalyticsEvents };
  let store: MemoryStore;
  try {
    store = createMemoryStore({ ...limits, initial, onChange: schedule });
  } catch (error) {
    // Records that fit their schemas but not each other: still the file's fault, said as such.
    throw new ConfigError([
      `--data-file ${path}: its records cannot be loaded (${(error as Error).message})`,
      LEFT_UNTOUCHED,
    ]);
  }
  // A missing file is created at once, so a bad path fails at start rather than later. A file
  // that was read is left as it is until something changes: a start and stop alter no byte.
  try {
    if (db.data === fresh) {
      dirty = true;
      await write();
    } else await access(dirname(path), constants.W_OK);
  } catch (error) {
    throw new ConfigError([`--data-file ${path}: it cannot be written (${(error as Error).message}).`]);
  }
  return Object.assign(store, { flush: () => write(), close: () => write() });
}
