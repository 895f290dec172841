/**
 * Notification records in arrival order, capped (oldest dropped first), with the by-id
 * index brought up to date when a lookup by id needs it rather than on every send.
 */
import type { NotificationRecord } from '../schemas/records.js';
import type { ListResult, NotificationFilter, Page } from '../domain/ports.js';
import { Deque } from './deque.js';
import { isFiltered, notificationPredicate, paginate } from '../domain/record-filters.js';

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

export function createNotificationLog(
  maxRecords: number,
  initial: readonly NotificationRecord[] = [],
): NotificationLog {
  let records = new Deque<NotificationRecord>();
  let byId = new Map<string, NotificationRecord>();
  /** Records at the end not yet in byId. */
  let unindexed = 0;
  let dropped = 0;

  function add(record: NotificationRecord): void {
    records.push(record);
    unindexed++;
    if (records.length <= maxRecords) return;
    const indexed = records.length > unindexed;
    const old = records.shift()!;
    dropped++;
    if (indexed) byId.delete(old.notificationId);
    else unindexed--;
  }

  function findById(id: string): NotificationRecord | undefined {
    for (let i = records.length - unindexed; i < records.length; i++) {
      const record = records.at(i)!;
      byId.set(record.notificationId, record);
    }
    unindexed = 0;
    return byId.get(id);
  }

  for (const record of initial) add(record);

  return {
    get length() {
      return records.length;
    },
    get dropped() {
      return dropped;
    },
    add,
    query(filter, page) {
      if (filter.notificationId === undefined)
        return paginate(records, isFiltered(filter) ? notificationPredicate(filter) : null, page);
      const one = findById(filter.notificationId);
      return paginate(one ? [one] : [], notificationPredicate(filter), page);
    },
    retain(keep) {
      const kept = records.toArray().filter(keep);
      records = new Deque();
      byId = new Map();
      unindexed = 0;
      const droppedBefore = dropped;
      for (const record of kept) add(record);
      dropped = droppedBefore;
    },
    toArray: () => records.toArray(),
  };
}
