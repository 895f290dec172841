/* global gc, setTimeout */
// Live heap per stored record, kind by kind: `node --expose-gc bench/record-heap.mjs [N]`
// (BENCH_DIST=path measures another build). Each kind is filled into a fresh memory store
// through its port, with records shaped as the emulator makes them (fresh id and time strings,
// user ids as a request or CSV parse gives them), its indexes used once, then the heap is read
// after a forced collection: (heapUsed after - heapUsed before) / N, indexes included.
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const DIST = process.env.BENCH_DIST ?? 'dist';
const root = fileURLToPath(new URL('..', import.meta.url));
const { createMemoryStore } = await import(pathToFileURL(resolve(root, DIST, 'index.js')).href);

let N = Number(process.argv[2] ?? 200_000);
const APPS = ['bench-app', 'bench-app-2'];
const t0 = Date.parse('2026-01-01T00:00:00.000Z');
let counter = 0x100000;
/** An id as the emulator names one: 8 hex of seconds, 10 of machine, 6 of counter. */
const objectId = (i) =>
  [
    Math.floor((t0 + i * 10) / 1000).toString(16),
    'a1b2c3d4e5',
    (counter++ % 0x1000000).toString(16).padStart(6, '0'),
  ].join('');
/** A fresh ISO string per record, as clock.nowIso() gives one per call. */
const iso = (i) => new Date(t0 + i * 10).toISOString();
/** A user id as parsed off the wire: a fresh string, not a constant the script shares. */
const userId = (i) => ['user-', i % 100_000].join('');

const heapUsed = async () => {
  // The stores pack and index on later turns, in slices: let them (1 s), then collect.
  for (let i = 0; i < 100; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  gc();
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return { heap: heapUsed, typedArrays: arrayBuffers };
};

function recipients(store, variablesOf, sent) {
  const perCampaign = 10_000;
  for (let c = 0; c * perCampaign < N; c++) {
    const campaignId = objectId(c);
    const at = iso(c);
    const list = [];
    for (let r = 0; r < perCampaign && c * perCampaign + r < N; r++)
      list.push({
        id: objectId(c * perCampaign + r),
        campaignId,
        appId: APPS[c % 2],
        userId: userId(c * perCampaign + r),
        variables: variablesOf(r),
        status: 'pending',
        failureReason: null,
        deliveryId: null,
        createdAt: at,
        updatedAt: at,
      });
    store.addRecipients(campaignId, list);
    if (sent) {
      const sentAt = iso(c + 1);
      for (const r of list)
        store.updateRecipient(campaignId, r.id, {
          status: r.userId.endsWith('7') ? 'failed' : 'sent',
          failureReason: r.userId.endsWith('7') ? 'scenario "flaky": push provider unavailable' : null,
          deliveryId: objectId(N + c * perCampaign),
          updatedAt: sentAt,
        });
    }
    store.hasRecipient(campaignId, 'nobody');
    store.listRecipients(campaignId, { status: 'failed' }, { offset: 0, limit: 10 });
  }
}

const kinds = {
  'recipient (POST /recipients: no variables)': (store) => recipients(store, () => ({}), false),
  'recipient (CSV row: 2 text variables)': (store) =>
    recipients(store, (r) => ({ name: ['User ', r].join(''), city: 'Lyon' }), false),
  'recipient (CSV row: the bench file, text, image and action cells)': (store) =>
    recipients(
      store,
      (r) => ({
        customerName: ['Customer ', r].join(''),
        orderId: ['ORD-', 500_000 + r].join(''),
        banner: {
          url: ['https://picsum.photos/seed/', r.toString(36), '/1080/1080'].join(''),
          width: 1080,
          height: 1080,
        },
        cta: { type: 'web', data: ['https://shop.example/track/', r].join('') },
      }),
      false,
    ),
  'recipient (CSV row, after its campaign was sent)': (store) =>
    recipients(store, (r) => ({ name: ['User ', r].join(''), city: 'Lyon' }), true),
  'analytics event': (store) => {
    for (let i = 0; i < N; i++)
      store.addAnalyticsEvent({
        id: ['evt_', objectId(i)].join(''),
        appId: APPS[i % 2],
        campaignId: ['notif_', (i % 50_000).toString(16).padStart(24, '0')].join(''),
        userId: userId(i),
        channelType: 'in_app',
        eventType: ['delivered', 'viewed', 'clicked'][i % 3],
        createdAt: iso(i),
      });
    store.listUserAnalyticsEvents('bench-app', userId(42));
  },
};

// A first round, not counted: the code the fills and stores compile is in the heap too.
const measuring = N;
N = 5_000;
for (const fill of Object.values(kinds)) fill(createMemoryStore());
N = measuring;

const results = {};
for (const [kind, fill] of Object.entries(kinds)) {
  // One store per kind; the empty store's own heap is in `before`.
  const store = createMemoryStore({ maxRecipients: N, maxAnalyticsEvents: N });
  const before = await heapUsed();
  fill(store);
  const after = await heapUsed();
  const heap = Math.round((after.heap - before.heap) / N);
  const typedArrays = Math.round((after.typedArrays - before.typedArrays) / N);
  results[kind] = { heap, typedArrays, total: heap + typedArrays };
  if (store.stats().recipients + store.stats().analyticsEvents !== N) throw new Error(`${kind}: not all kept`);
}
process.stdout.write(`${JSON.stringify({ dist: DIST, records: N, bytesPerRecord: results }, null, 2)}\n`);
