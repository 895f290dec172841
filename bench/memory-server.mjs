/* global gc, performance, setImmediate, setInterval */
// Run as its own process by the memory metric, with the heap a 512 MiB container gives Node
// (--max-old-space-size=384): fills every store but deliveries to its default cap through the
// store ports (bench/fill-stores.mjs), then serves the emulator over that store and prints its
// URL. The parent fills deliveries over HTTP; with BENCH_MEMORY_DELIVERIES=realtime this
// process fills them first, as realtime sends of one through the port. On SIGUSR2 it collects
// and prints a `memory {…}` line: its memory now, the most heap it used (sampled every 50 ms) since it started, and the
// bytes each kind of record added (live heap and typed arrays after a full collection, per record).
import { built } from './built.mjs';
import {
  fillAnalytics,
  fillJournal,
  fillNotifications,
  fillRealtimeDeliveries,
  fillRecipients,
} from './fill-stores.mjs';

const { createMemoryStore, EmulatorOptionsSchema, startEmulator } = await built('index.js');
const { createIds } = await built('platform/random.js');

let peakHeapUsed = 0;
const sample = () => (peakHeapUsed = Math.max(peakHeapUsed, process.memoryUsage().heapUsed));
setInterval(sample, 50).unref();
/** Live heap plus the typed arrays packed records keep outside it, after a full collection. */
const kept = () => {
  sample();
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
};

const started = performance.now();
const caps = EmulatorOptionsSchema.parse(JSON.parse(process.env.BENCH_MEMORY_CAPS ?? '{}'));
const store = createMemoryStore(caps);
const bytesPerRecord = {};
const fill = async (kind, count, run) => {
  const before = kept();
  await run();
  bytesPerRecord[kind] = Math.round((kept() - before) / count);
};
await fill('notification', caps.maxNotifications, () => fillNotifications(store, caps.maxNotifications));
await fill('journal entry', caps.maxJournal, () => fillJournal(store, caps.maxJournal, 16 * 1024 * 1024));
await fill('recipient', caps.maxRecipients, () => fillRecipients(store, caps.maxCampaigns, caps.maxRecipients));
await fill('analytics event', caps.maxAnalyticsEvents, () => fillAnalytics(store, caps.maxAnalyticsEvents));
if (process.env.BENCH_MEMORY_DELIVERIES === 'realtime') {
  const ids = createIds({ now: () => Date.now() }, { next: Math.random });
  // In steps of 1,000 with a turn between, as sends over HTTP come (a few dozen a turn at
  // full speed): the store seals them and catches its indexes up in background turns.
  await fill('realtime delivery', caps.maxDeliveries, async () => {
    for (let sent = 0; sent < caps.maxDeliveries; sent += 1_000) {
      fillRealtimeDeliveries(store, ids, Math.min(1_000, caps.maxDeliveries - sent), sent);
      await new Promise((resolve) => setImmediate(resolve));
    }
  });
}
const fillMs = performance.now() - started;

const running = await startEmulator({
  ...caps,
  port: 0,
  store,
  logLevel: 'error',
  watch: false,
  fixturesDir: 'fixtures',
});
process.on('SIGUSR2', () => {
  const total = kept();
  const memory = { ...process.memoryUsage(), kept: total, peakHeapUsed, fillMs, bytesPerRecord, stats: store.stats() };
  process.stdout.write(`memory ${JSON.stringify(memory)}\n`);
});
process.stdout.write(`listening on ${running.url}\n`);
