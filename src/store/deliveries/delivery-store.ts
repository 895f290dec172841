/**
 * Deliveries in memory: the DeliveryStore port over the delivery log (delivery-log.ts: runs,
 * indexes caught up by the queries that need them, the retention cap).
 */
import type { DeliveryStore } from '../../domain/ports.js';
import { createDeliveryLog } from './delivery-log.js';
import { runOf, storedView } from './delivery-run.js';
import type { KindOptions, RecordKind } from '../store-data.js';
import { clearByApp } from '../common/clear-by-app.js';

type DeliveryData = 'deliveries' | 'droppedDeliveries';

export function createDeliveryStore(
  maxDeliveries: number,
  { initial, changed, turns }: KindOptions<DeliveryData>,
): RecordKind<DeliveryStore, DeliveryData, DeliveryData> {
  let log = createDeliveryLog(maxDeliveries, initial?.deliveries, initial?.droppedDeliveries, { later: turns.later });
  const port: DeliveryStore = {
    addDeliveries(batch, ids) {
      const run = runOf(batch, ids);
      log.addRun(run);
      changed();
      return storedView(run);
    },
    queryDeliveries: (filter, page) => log.query(filter, page),
    countDeliveries: (filter) => log.query(filter, { offset: 0, limit: 0 }).total,
    getDelivery: (id) => log.find(id),
    countDeliveriesByTime: (filter, bucketMs) => log.countByTime(filter, bucketMs),
    countDeliveriesByChannelAndTime: (filter, bucketMs) => log.countByChannelAndTime(filter, bucketMs),
  };
  return {
    port,
    ...clearByApp(
      () => log,
      () => (log = createDeliveryLog(maxDeliveries, [], 0, { later: turns.later })),
    ),
    stats: () => ({ deliveries: log.length, droppedDeliveries: log.dropped }),
    snapshot: () => ({ deliveries: log.toArray(), droppedDeliveries: log.dropped }),
    persistable: () => ({ deliveries: log.frozen(), droppedDeliveries: log.dropped }),
  };
}
