/**
 * The Store persisted in a JSON file (--data-file, docs/reference.md#running-it): the memory store does the
 * work; every change schedules one coalesced write of its snapshot through lowdb.
 */
import { dirname, resolve } from 'node:path';
import { Low } from 'lowdb';
import { makeFolder } from '../platform/make-folder.js';
import { ConfigError } from '../domain/errors.js';
import { createMemoryStore, type MemoryStore } from './memory-store.js';
import { emptyStoreData, type RetentionLimits, type StoreData, type StoreSnapshot } from './store-data.js';
import { SlicedJsonFile } from './sliced-json-file.js';

export interface LowdbStoreOptions extends RetentionLimits {
  /** Quiet time after the last change before writing. @default 250 */
  debounceMs?: number;
  /** Longest a change waits for its write under constant traffic. @default 1000 */
  maxWaitMs?: number;
  /** Called when a background write fails (a later write retries with the newest state). */
  onWriteError?: (error: unknown) => void;
}

/**
 * Shallow shape check against emptyStoreData(): a file from another program must not be
 * taken for ours (and later overwritten). Keys missing from an older file get defaults.
 */
function checkShape(file: string, data: unknown): StoreData {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ConfigError([
      `--data-file ${file}: the file holds JSON but not an emulator data file (expected an object). Move or delete ` +
        `it to start fresh.`,
    ]);
  }
  const defaults = emptyStoreData();
  const merged = { ...defaults, ...(data as Partial<StoreData>) };
  const problems: string[] = [];
  for (const [key, value] of Object.entries(defaults)) {
    const given: unknown = merged[key as keyof StoreData];
    if (Array.isArray(value) && !Array.isArray(given)) problems.push(`--data-file ${file}: "${key}" must be an array`);
    if (typeof value === 'number' && typeof given !== 'number')
      problems.push(`--data-file ${file}: "${key}" must be a number`);
  }
  if (problems.length) throw new ConfigError([...problems, `Move or delete ${file} to start fresh.`]);
  return merged;
}

export async function openLowdbStore(file: string, options: LowdbStoreOptions = {}): Promise<MemoryStore> {
  const path = resolve(file);
  const debounceMs = options.debounceMs ?? 250;
  const maxWaitMs = options.maxWaitMs ?? 1000;
  // Built by hand: JSONFilePreset would silently switch to memory under NODE_ENV=test.
  // The adapter writes in slices between turns of the event loop, to a temp file then
  // renamed over the data file, so the file is always whole JSON and requests keep flowing.
  const db = new Low<StoreSnapshot>(new SlicedJsonFile<StoreSnapshot>(path), emptyStoreData());
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
        ? `is not valid JSON (${error.message})`
        : `cannot be read (${(error as Error).message})`;
    throw new ConfigError([
      `--data-file ${path} ${reason}. It was left untouched; fix it, or move/delete it to start with empty state.`,
    ]);
  }
  const initial = checkShape(path, db.data as StoreData);

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
    db.data = store.persistable();
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
  const store = createMemoryStore({ ...limits, initial, onChange: schedule });
  // A missing file is created at once, so a bad path fails at start rather than later.
  dirty = true;
  try {
    await write();
  } catch (error) {
    throw new ConfigError([`--data-file ${path} cannot be written (${(error as Error).message}).`]);
  }
  return Object.assign(store, { flush: () => write(), close: () => write() });
}
