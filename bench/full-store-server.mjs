/* global gc, Buffer, performance, setImmediate */
// Run as its own process (with the heap limit a 512 MiB container gives Node) by the
// full-stores metric: fills every store but deliveries to its default cap through the store
// ports, with records shaped as the emulator makes them (fresh id and time strings per record),
// prints the live heap each kind added, then serves the emulator over that store and prints
// its URL. The parent fills deliveries over HTTP (batch sends) and measures from outside.
import { writeFileSync } from 'node:fs';
import { createMemoryStore, EmulatorOptionsSchema, startEmulator } from '../dist/index.js';
import { createIds } from '../dist/platform/random.js';

// Deliveries at 500,000: what a 512 MiB container needs beside the other stores at their defaults
// (docs/performance.md, "Memory is bounded by default"); the other caps are the defaults. The
// burst metric asks for the default delivery cap (FULL_STORE_MAX_DELIVERIES) and fills
// deliveries here too (FULL_STORE_FILL_DELIVERIES=1): realtime sends of one and batches of 10,000.
const caps = EmulatorOptionsSchema.parse({ maxDeliveries: Number(process.env.FULL_STORE_MAX_DELIVERIES ?? 500_000) });
const store = createMemoryStore(caps);
const APPS = ['bench-app', 'bench-app-2'];
const MODES = ['realtime', 'batch'];
let serial = 0;
const hex = () => (0x10000000 + serial++).toString(16).padStart(24, '0');
const t0 = Date.now() - 3_600_000;
/** A fresh ISO string per record, as clock.nowIso() gives; ten records per millisecond. */
const iso = (i) => new Date(t0 + Math.floor(i / 10)).toISOString();
const heapMb = () => {
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
};
const perKind = {};
const measure = (kind, count, fill) => {
  const before = heapMb();
  fill();
  perKind[kind] = { count, bytesPerRecord: Math.round(((heapMb() - before) * 1024 * 1024) / Math.max(1, count)) };
};

measure('notifications', caps.maxNotifications, () => {
  for (let i = 0; i < caps.maxNotifications; i++)
    store.addNotification({
      notificationId: `notif_${hex()}`,
      templateKey: `template-${i % 5}`,
      channels: ['in_app'],
      mode: MODES[i % 2],
      title: null,
      tag: i % 3 === 0 ? `tag-${i % 7}` : null,
      sentFrom: 'api',
      createdAt: iso(i),
      appId: APPS[i % 2],
      templateId: `tpl-${i % 5}`,
      targetCount: 1,
      sentCount: 1,
      failedCount: 0,
    });
});

const bodyChars = Math.floor((16 * 1024 * 1024) / caps.maxJournal / 2) - 16;
/** A flat string of `n` characters, unique per call (a request body parsed off the wire is not shared). */
const flat = (prefix, n) => Buffer.from(`${prefix}${'x'.repeat(n)}`).toString('latin1');
measure('journal', caps.maxJournal, () => {
  for (let i = 0; i < caps.maxJournal; i++)
    store.addJournal({
      id: hex(),
      time: iso(i * 20),
      method: i % 4 === 0 ? 'GET' : 'POST',
      path: i % 4 === 0 ? '/api/analytics/channels' : '/api/notifications/send',
      query: '',
      appId: APPS[i % 2],
      status: i % 10 === 0 ? 400 : 200,
      errorCode: i % 10 === 0 ? 'ERR_BAD_REQUEST' : null,
      scenario: i % 13 === 0 ? 'flaky' : null,
      rule: null,
      rules: [],
      requestHeaders: { 'content-type': 'application/json' },
      requestBody: flat(`{"n":${i},"pad":"`, bodyChars),
      requestBodyTruncated: false,
      responseBody: flat(`{"id":"${i}","pad":"`, bodyChars),
      responseBodyTruncated: false,
      durationMs: 1,
    });
});

const perCampaign = Math.ceil(caps.maxRecipients / caps.maxCampaigns);
measure('recipients', caps.maxRecipients, () => {
  for (let c = 0; c < caps.maxCampaigns; c++) {
    const campaignId = hex();
    const createdAt = iso(c);
    store.addCampaign({
      id: campaignId,
      appId: APPS[c % 2],
      name: `Campaign ${c}`,
      templateId: 'tpl-0',
      status: c % 3 === 0 ? 'sent' : 'draft',
      deliveryMode: 'batch',
      tag: null,
      scheduledAt: null,
      recipientCount: perCampaign,
      sentCount: 0,
      failedCount: 0,
      createdAt,
      updatedAt: createdAt,
      startedAt: null,
      completedAt: null,
    });
    const list = [];
    for (let r = 0; r < perCampaign; r++) {
      const at = iso(c * perCampaign + r);
      list.push({
        id: hex(),
        campaignId,
        appId: APPS[c % 2],
        userId: `user-${(c * perCampaign + r) % 100_000}`,
        variables: { name: `User ${r}`, city: 'Lyon' },
        status: r % 10 === 0 ? 'failed' : 'pending',
        failureReason: null,
        deliveryId: null,
        createdAt: at,
        updatedAt: at,
      });
    }
    store.addRecipients(campaignId, list);
  }
});

measure('analyticsEvents', caps.maxAnalyticsEvents, () => {
  for (let i = 0; i < caps.maxAnalyticsEvents; i++)
    store.addAnalyticsEvent({
      id: `evt_${hex()}`,
      appId: APPS[i % 2],
      campaignId: `notif_${(i % 50_000).toString(16).padStart(24, '0')}`,
      userId: `user-${i % 100_000}`,
      channelType: 'in_app',
      eventType: ['delivered', 'viewed', 'clicked'][i % 3],
      createdAt: iso(i),
    });
});

if (process.env.FULL_STORE_FILL_DELIVERIES === '1') {
  // A fifth of the cap as realtime sends (one delivery each, a few failed), the rest as batch
  // sends of 10,000: every filter's index holds both kinds of entry.
  const ids = createIds({ now: () => Date.now() }, { next: Math.random });
  const render = () => ({ in_app: { title: 'Hello', body: 'Welcome' } });
  const shared = (i, mode, createdAt) => ({
    appId: APPS[i % 2],
    notificationId: `notif_${hex()}`,
    campaignId: null,
    templateId: `tpl-${i % 5}`,
    templateKey: `template-${i % 5}`,
    channels: i % 4 === 0 ? ['in_app', 'push'] : ['in_app'],
    mode,
    title: null,
    tag: mode === 'batch' ? 'bench' : i % 3 === 0 ? `tag-${i % 7}` : null,
    pushData: null,
    createdAt,
  });
  const singles = Math.floor(caps.maxDeliveries / 5);
  const failed = new Map([[0, { reason: 'Delivery failed (scenario)', scenario: 'flaky' }]]);
  measure('deliveries', caps.maxDeliveries, () => {
    for (let b = 0; b < (caps.maxDeliveries - singles) / 10_000; b++) {
      const userIds = Array.from({ length: 10_000 }, (_, k) => `user-${(b * 10_000 + k) % 100_000}`);
      const batch = { shared: shared(b, 'batch', iso(b)), userIds, variables: { all: { name: 'Ada' } }, render };
      store.addDeliveries({ ...batch, failures: new Map() }, ids);
    }
    for (let i = 0; i < singles; i++) {
      const batch = {
        shared: shared(i, 'realtime', iso(100 + i * 10)),
        userIds: [`user-${(i * 7) % 100_000}`],
        render,
      };
      store.addDeliveries(
        { ...batch, variables: { all: { name: 'Ada' } }, failures: i % 100 === 0 ? failed : new Map() },
        ids,
      );
    }
  });
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
