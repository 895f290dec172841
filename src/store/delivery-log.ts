/**
 * Deliveries in arrival order with per-key indexes (user, notification, campaign, app) and a
 * retention cap that drops the oldest first, so lookups stay fast at a million records.
 */
import type { Delivery } from '../schemas/records.js';
import type { DeliveryFilter, ListResult, Page } from '../domain/ports.js';
import { Deque } from './deque.js';
import { deliveryPredicate, paginate } from './filters.js';

type IndexKey = 'userId' | 'notificationId' | 'campaignId' | 'appId';
const INDEX_KEYS: IndexKey[] = ['userId', 'notificationId', 'campaignId', 'appId'];

export interface DeliveryLog {
  readonly length: number;
  /** How many the retention cap has dropped. */
  readonly dropped: number;
  add(d: Delivery): void;
  query(filter: DeliveryFilter, page: Page): ListResult<Delivery>;
  /** Keeps only the deliveries `keep` accepts (rebuilding the indexes). */
  retain(keep: (d: Delivery) => boolean): void;
  toArray(): Delivery[];
}

/** `initial` is loaded under the cap; `initialDropped` then restores the persisted count. */
export function createDeliveryLog(maxDeliveries: number, initial: readonly Delivery[] = [], initialDropped = 0): DeliveryLog {
  let deliveries = new Deque<Delivery>();
  let indexes = new Map<IndexKey, Map<string, Deque<Delivery>>>();
  let dropped = 0;

  /**
   * Per key, the list the previous delivery went to: a batch shares its app and
   * notification (or campaign), so those lists are looked up once per batch, not per record.
   */
  let lastLists: { value: string | null; list: Deque<Delivery> | undefined }[] = [];
  const forgetLastLists = () => (lastLists = INDEX_KEYS.map(() => ({ value: null, list: undefined })));

  function resetIndexes(): void {
    indexes = new Map(INDEX_KEYS.map((k) => [k, new Map()]));
    forgetLastLists();
  }

  function indexUnder(k: number, value: string | null, d: Delivery): void {
    if (value === null) return;
    const last = lastLists[k]!;
    let list = last.value === value ? last.list : undefined;
    if (!list) {
      const byValue = indexes.get(INDEX_KEYS[k]!)!;
      list = byValue.get(value);
      if (!list) byValue.set(value, (list = new Deque()));
      last.value = value;
      last.list = list;
    }
    list.push(d);
  }

  // Field by field (same order as INDEX_KEYS): a keyed read d[key] is several times slower at 10,000 records a call.
  function push(d: Delivery): void {
    deliveries.push(d);
    indexUnder(0, d.userId, d);
    indexUnder(1, d.notificationId, d);
    indexUnder(2, d.campaignId, d);
    indexUnder(3, d.appId, d);
  }

  function dropOldest(): void {
    const d = deliveries.shift();
    if (!d) return;
    dropped++;
    // The oldest overall is also the oldest under each of its keys.
    for (const key of INDEX_KEYS) {
      const value = d[key];
      if (value === null) continue;
      const list = indexes.get(key)!.get(value);
      list?.shift();
      if (list && list.length === 0) {
        indexes.get(key)!.delete(value);
        forgetLastLists(); // the cached list may be the one just dropped
      }
    }
  }

  function smallestCandidateSet(f: DeliveryFilter): Iterable<Delivery> {
    let best: Iterable<Delivery> = deliveries;
    let bestSize = deliveries.length;
    for (const key of INDEX_KEYS) {
      const value = f[key];
      if (value === undefined) continue;
      const list = indexes.get(key)!.get(value);
      const size = list?.length ?? 0;
      if (size < bestSize) {
        best = list ?? [];
        bestSize = size;
      }
    }
    return best;
  }

  resetIndexes();
  for (const d of initial) push(d);
  while (deliveries.length > maxDeliveries) dropOldest();
  dropped = initialDropped;

  return {
    get length() {
      return deliveries.length;
    },
    get dropped() {
      return dropped;
    },
    add(d) {
      push(d);
      if (deliveries.length > maxDeliveries) dropOldest();
    },
    query(filter, page) {
      const keys = Object.values(filter).filter((v) => v !== undefined);
      if (keys.length === 0) return { total: deliveries.length, items: deliveries.slice(page.offset, page.offset + page.limit) };
      return paginate(smallestCandidateSet(filter), deliveryPredicate(filter), page);
    },
    retain(keep) {
      const kept = deliveries.toArray().filter(keep);
      deliveries = new Deque();
      resetIndexes();
      for (const d of kept) push(d);
    },
    toArray: () => deliveries.toArray(),
  };
}
