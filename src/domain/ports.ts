/**
 * The interfaces the domain needs from the outside world, one file per kind in ports/:
 * the platform (clock, ids, randomness), a store port per kind of record composed into
 * the Store, the catalogs, the event bus and delivery faults. Concrete clocks, stores,
 * catalogs and scenario engines implement them; the domain only sees these.
 */
export * from './ports/platform.js';
export * from './ports/lists.js';
export * from './ports/deliveries.js';
export * from './ports/notifications.js';
export * from './ports/campaigns.js';
export * from './ports/journal.js';
export * from './ports/resources.js';
export * from './ports/analytics.js';
export * from './ports/app-states.js';
export * from './ports/store.js';
export * from './ports/catalogs.js';
export * from './ports/events.js';
export * from './ports/faults.js';
export * from './ports/deps.js';
