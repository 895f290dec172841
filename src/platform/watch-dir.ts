/**
 * Watches one folder (fixtures/templates, scenarios/) and calls back, debounced, after
 * its files change; editors write a file in several steps, so one save is one reload.
 */
import { existsSync, statSync, watch, type FSWatcher } from 'node:fs';

/** The folder's identity on disk, or undefined when it is gone. */
function inodeOf(dir: string): number | undefined {
  try {
    return statSync(dir).ino;
  } catch {
    return undefined;
  }
}

export interface WatchOptions {
  debounceMs?: number;
  /** Told when the folder cannot be watched (on Linux, most often the inotify watch limit). */
  warn?: (message: string) => void;
}

/**
 * Returns the stop function; a folder that does not exist (or cannot be watched) is a no-op.
 * A folder replaced by another of the same name (a tool writes a new copy and renames it into
 * place, as `pull` does with templates/) is watched anew: a watch follows the folder it was
 * set on, which is then gone, and later edits would go unseen.
 */
export function watchDirectory(
  dir: string,
  onChange: () => void,
  { debounceMs = 100, warn }: WatchOptions = {},
): () => void {
  if (!existsSync(dir)) return () => {};
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  let watched: number | undefined;
  const changed = () => {
    clearTimeout(timer);
    timer = setTimeout(fire, debounceMs);
  };
  const start = (): boolean => {
    try {
      watched = inodeOf(dir);
      watcher = watch(dir, changed);
      // Some platforms report a watched folder's removal as an error: stop rather than crash.
      watcher.on('error', () => watcher?.close());
      watcher.unref();
      return true;
    } catch (error) {
      watcher = undefined;
      warn?.(
        `cannot watch ${dir} for changes (${(error as Error).message}): edits there take effect after a restart. ` +
          `On Linux, raise fs.inotify.max_user_watches when the limit is reached; --no-watch silences this.`,
      );
      return false;
    }
  };
  const fire = () => {
    const now = inodeOf(dir);
    if (now !== undefined && now !== watched) {
      watcher?.close();
      start();
    }
    onChange();
  };
  if (!start()) return () => {};
  return () => {
    clearTimeout(timer);
    watcher?.close();
  };
}
