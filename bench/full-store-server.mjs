/* global gc, performance, setImmediate */
// Run as its own process by the burst metric: fills every store to its default cap through the
// store ports, with records shaped as the emulator makes them (fresh id and time strings per
// record; bench/fill-stores.mjs), deliveries as realtime sends of one and batches of 10,000,
// reports the live heap each kind added and each filter's p99 in the store itself, then serves
// the emulator over that store and prints its URL. The parent measures bursts from outside.
import { writeFileSync } from 'node:fs';
import { built } from './built.mjs';
import {
  fillAnalytics,
  fillJournal,
  fillNotifications,
  fillRealtimeDeliveries,
  fillRecipients,
  iso,
  render,
  sharedFields,
} from './fill-stores.mjs';

const { createMemoryStore, EmulatorOptionsSchema, startEmulator } = await built('index.js');
const { createIds } = await built('platform/random.js');

// Every cap its default: with recipients and analytics events packed, all of them fit a 512 MiB
// container (docs/performance.md, "Memory is bounded by default"; BENCH_ONLY=memory checks it).
const caps = EmulatorOptionsSchema.parse({});
const store = createMemoryStore(caps);
/** The live heap after a full collection, with the typed arrays packed records keep outside it. */
const heapMb = () => {
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return (heapUsed + arrayBuffers) / 1024 / 1024;
};
const perKind = {};
const measure = async (kind, count, fill) => {
  const before = heapMb();
  await fill();
  perKind[kind] = { count, bytesPerRecord: Math.round(((heapMb() - before) * 1024 * 1024) / Math.max(1, count)) };
};

await measure('notifications', caps.maxNotifications, () => fillNotifications(store, caps.maxNotifications));
await measure('journal', caps.maxJournal, () => fillJournal(store, caps.maxJournal, 16 * 1024 * 1024));
await measure('recipients', caps.maxRecipients, () => fillRecipients(store, caps.maxCampaigns, caps.maxRecipients));
await measure('analyticsEvents', caps.maxAnalyticsEvents, () => fillAnalytics(store, caps.maxAnalyticsEvents));

/** The newest realtime send's notification: its deliveries are read by the notification's block of ids. */
let newestNotification;
{
  // A fifth of the cap as realtime sends (one delivery each, a few failed), the rest as batch
  // sends of 10,000: every filter's index holds both kinds of entry.
  const ids = createIds({ now: () => Date.now() }, { next: Math.random });
  const singles = Math.floor(caps.maxDeliveries / 5);
  let lastShared;
  await measure('deliveries', caps.maxDeliveries, () => {
    for (let b = 0; b < (caps.maxDeliveries - singles) / 10_000; b++) {
      const userIds = Array.from({ length: 10_000 }, (_, k) => `user-${(b * 10_000 + k) % 100_000}`);
      const batch = { shared: sharedFields(b, 'batch', iso(b)), userIds, variables: { all: { name: 'Ada' } }, render };
      store.addDeliveries({ ...batch, failures: new Map() }, ids);
    }
    lastShared = fillRealtimeDeliveries(store, ids, singles);
  });
  newestNotification = lastShared.notificationId;
  // Bring the delivery indexes up to date (they are built in slices on later turns, as after any burst of sends).
  for (let quick = 0; quick < 3;) {
    const started = performance.now();
    store.countDeliveries({ appId: 'bench-app', userId: 'user-1', tag: 'tag-1' });
    quick = performance.now() - started < 1 ? quick + 1 : 0;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Each filter's p99 over 200 calls of the store itself: the index work, apart from HTTP and JSON. */
const page = { offset: 0, limit: 100, order: 'desc' };
const since = Date.parse(iso(caps.maxNotifications / 2));
const filters = {
  'notifications app+mode': () => store.queryNotifications({ appId: 'bench-app', mode: 'realtime' }, page),
  'notifications app+tag': () => store.queryNotifications({ appId: 'bench-app-2', tag: 'tag-1' }, page),
  'notifications mode+since': () => store.queryNotifications({ mode: 'batch', since }, page),
  'notifications templateKey+tag': () => store.queryNotifications({ templateKey: 'template-1', tag: 'tag-3' }, page),
  'journal app+method': () => store.queryJournal({ appId: 'bench-app', method: 'GET' }, page),
  'journal path+status': () => store.queryJournal({ path: '/api/notifications/send', status: 400 }, page),
  'journal scenario': () => store.queryJournal({ scenario: 'flaky' }, page),
  'journal bodyContains': () => store.queryJournal({ bodyContains: '"n":9999,' }, page),
  'deliveries notification': () => store.queryDeliveries({ notificationId: newestNotification }, page),
  'analytics user': () => store.listUserAnalyticsEvents('bench-app', 'user-4242'),
  'campaigns app': () => store.listCampaigns({ appId: 'bench-app' }),
};
// The indexes take in the fill on the next turn (as they would after any burst of writes): let them.
await new Promise((resolve) => setImmediate(resolve));
const storeP99 = {};
for (const [name, run] of Object.entries(filters)) {
  const times = [];
  for (let i = 0; i < 200; i++) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  storeP99[name] = Number(times[197].toFixed(3));
}
const report = JSON.stringify({ perKind, heapMb: Math.round(heapMb()), storeP99 });
if (process.env.FULL_STORE_REPORT) writeFileSync(process.env.FULL_STORE_REPORT, report);
else process.stderr.write(`${report}\n`);
const running = await startEmulator({ port: 0, store, logLevel: 'error', watch: false, fixturesDir: 'fixtures' });
process.stdout.write(`listening on ${running.url}\n`);
// Exits cleanly on the bench's SIGTERM, so a --cpu-prof (BENCH_NODE_FLAGS) is written.
process.once('SIGTERM', () => void running.close().then(() => process.exit(0)));
