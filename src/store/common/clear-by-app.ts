/**
 * clear() and reset() of a kind kept in one log (RecordKind, store-data.ts): both drop every
 * record, or one app's; a reset of every app also starts a fresh log, so its count of records
 * the cap dropped starts over too.
 */
import type { RecordKind } from '../store-data.js';

/** A log that keeps what `keep` accepts. */
interface RetainingLog<R extends { appId: string | null }> {
  retain(keep: (record: R) => boolean): void;
}

/** `current()`: the kind's log as it is now; `startFresh()`: puts an empty log in its place. */
export function clearByApp<R extends { appId: string | null }>(
  current: () => RetainingLog<R>,
  startFresh: () => void,
): Pick<RecordKind<unknown, never>, 'clear' | 'reset'> {
  const clear = (appId: string | undefined) =>
    current().retain(appId === undefined ? () => false : (record) => record.appId !== appId);
  return {
    clear,
    reset: (appId) => (appId === undefined ? startFresh() : clear(appId)),
  };
}
