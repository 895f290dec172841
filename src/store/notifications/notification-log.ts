/**
 * Notification records in arrival order, capped (oldest dropped first), every filter of
 * /__inspect/notifications answered from a key index (keyed-log.ts): by id, app, template,
 * mode and tag, and each of those within an app.
 */
import type { LoopTurns } from '../../platform/loop-turns.js';
import type { NotificationRecord } from '../../schemas/records.js';
import type { ListResult, NotificationFilter, Page } from '../../domain/ports.js';
import { notificationPredicate } from '../../domain/record-filters.js';
import { filterKeys } from '../common/filter-keys.js';
import { KeyedLog } from '../common/keyed-log.js';

export interface NotificationLog {
  readonly length: number;
  /** How many the cap has dropped. */
  readonly dropped: number;
  add(record: NotificationRecord): void;
  query(filter: NotificationFilter, page: Page): ListResult<NotificationRecord>;
  /** Keeps only the records `keep` accepts. */
  retain(keep: (record: NotificationRecord) => boolean): void;
  toArray(): NotificationRecord[];
}

const keys = filterKeys<NotificationRecord>(
  (n) => n.appId,
  [
    { valueOf: (n) => n.notificationId, withApp: false, unique: true },
    { valueOf: (n) => n.templateKey, withApp: true },
    { valueOf: (n) => n.mode, withApp: true },
    { valueOf: (n) => n.tag, withApp: true },
  ],
);

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

export function createNotificationLog(
  maxRecords: number,
  initial: readonly NotificationRecord[] = [],
  turns?: LoopTurns,
): NotificationLog {
  const log = new KeyedLog<NotificationRecord>(
    {
      maxRecords,
      ...keys.forLog(),
      timeOf: (n) => n.createdAt,
      later: turns?.later,
    },
    initial,
  );
  return {
    get length() {
      return log.length;
    },
    get dropped() {
      return log.dropped;
    },
    add: (record) => log.add(record),
    query(filter, page) {
      const { keys: read, exact } = keys.keysFor(filter.appId, [
        filter.notificationId,
        filter.templateKey,
        filter.mode,
        filter.tag,
      ]);
      // Every filter field is a key: the records common to them all need no test.
      const q = { keys: read, exact, covered: true, matches: notificationPredicate(filter) };
      return log.query({ ...q, since: iso(filter.since), until: iso(filter.until) }, page);
    },
    retain: (keep) => log.retain(keep),
    toArray: () => log.toArray(),
  };
}
