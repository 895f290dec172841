/**
 * Watches one folder (fixtures/templates, scenarios/) and calls back, debounced, after
 * its files change; editors write a file in several steps, so one save is one reload.
 */
import { existsSync, watch, type FSWatcher } from 'node:fs';

export interface WatchOptions {
  debounceMs?: number;
  /** How often the path of a deleted folder is looked at until it is there again. */
  pollMs?: number;
  /** Told when the folder cannot be watched (on Linux, most often the inotify watch limit). */
  warn?: (message: string) => void;
}

/**
 * Returns the stop function; a folder that cannot be watched is a no-op. Each change sets a
 * fresh watch before calling back: the folder may have been deleted and made again (`rm -r`,
 * then `cp -r` or a checkout), or replaced by a copy renamed into place (as `pull` does with
 * templates/). A watch follows the folder it was set on, which is then gone, and the new
 * folder may even reuse its inode, so later edits would go unseen. A folder that is not there,
 * at the start or after a change, is looked for every `pollMs`, then watched and read.
 */
export function watchDirectory(
  dir: string,
  onChange: () => void,
  { debounceMs = 100, pollMs = 1000, warn }: WatchOptions = {},
): () => void {
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  /** While the folder is missing: the timer that looks for it. */
  let poll: NodeJS.Timeout | undefined;
  const changed = () => {
    clearTimeout(timer);
    timer = setTimeout(fire, debounceMs);
  };
  const start = (): boolean => {
    try {
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
  const stopPolling = () => {
    clearInterval(poll);
    poll = undefined;
  };
  /** Looks for the missing folder every pollMs; once it is there, it is watched and read. */
  const awaitFolder = () => {
    if (poll) return;
    poll = setInterval(() => {
      if (!existsSync(dir)) return;
      stopPolling();
      if (start()) onChange();
    }, pollMs);
    poll.unref();
  };
  const fire = () => {
    watcher?.close();
    watcher = undefined;
    if (existsSync(dir)) start();
    else awaitFolder();
    onChange();
  };
  if (!existsSync(dir)) awaitFolder();
  else if (!start()) return () => {};
  return () => {
    clearTimeout(timer);
    watcher?.close();
    stopPolling();
  };
}
