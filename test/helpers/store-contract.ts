/**
 * The behaviour every Store must have (src/domain/ports/), one suite per kind of record
 * (store-contract/), run against each implementation: memory-store.test.ts and
 * lowdb-store.test.ts call storeContract with a factory.
 */
import { afterEach, describe } from 'vitest';
import type { Store } from '../../src/index.js';
import { analyticsContract } from './store-contract/analytics.js';
import { campaignContract } from './store-contract/campaigns.js';
import { deliveryContract } from './store-contract/deliveries.js';
import { deliveryIndexContract } from './store-contract/delivery-indexes.js';
import { indexContract } from './store-contract/indexes.js';
import { journalContract } from './store-contract/journal.js';
import { lifecycleContract } from './store-contract/lifecycle.js';
import { notificationContract } from './store-contract/notifications.js';
import { packedIndexContract } from './store-contract/packed-indexes.js';
import type { StoreOptions } from './store-contract/records.js';
import { resourceContract } from './store-contract/resources.js';

export { ALL, addDeliveries, delivery, fill, journalEntry, recipient } from './store-contract/records.js';

export type StoreFactory = (options: StoreOptions) => Promise<Store>;

export function storeContract(name: string, factory: StoreFactory): void {
  describe(`${name}: the Store contract`, () => {
    const open: Store[] = [];
    const make = async (options: StoreOptions = {}) => {
      const store = await factory(options);
      open.push(store);
      return store;
    };
    afterEach(async () => {
      for (const store of open.splice(0)) await store.close();
    });

    deliveryContract(make);
    notificationContract(make);
    campaignContract(make);
    journalContract(make);
    resourceContract(make);
    analyticsContract(make);
    lifecycleContract(make);
    indexContract(make);
    deliveryIndexContract(make);
    packedIndexContract(make);
  });
}
