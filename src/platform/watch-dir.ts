/**
 * Watches one folder (fixtures/templates, scenarios/) and calls back, debounced, after
 * its files change; editors write a file in several steps, so one save is one reload.
 */
import { existsSync, watch, type FSWatcher } from 'node:fs';

/** Returns the stop function; a folder that does not exist (or cannot be watched) is a no-op. */
export function watchDirectory(dir: string, onChange: () => void, debounceMs = 100): () => void {
  if (!existsSync(dir)) return () => {};
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dir, () => {
      clearTimeout(timer);
      timer = setTimeout(onChange, debounceMs);
    });
    watcher.unref();
  } catch {
    return () => {};
  }
  return () => {
    clearTimeout(timer);
    watcher?.close();
  };
}
