// Fills the stores of a memory store through their ports, with records shaped as the emulator
// makes them (fresh id and time strings per record, as a request parsed off the wire gives):
// notifications, journal entries, campaigns with their recipients, analytics events, and
// deliveries of realtime sends. Shared by the burst and memory metrics' servers; the memory
// metric fills deliveries of batch sends over HTTP.
// The recipient and analytics fills give the event loop a turn after each campaign and each
// 2,048 events, as traffic over HTTP would: the stores seal what they took on later turns.
import { Buffer } from 'node:buffer';
import { setTimeout as turn } from 'node:timers/promises';

export const APPS = ['bench-app', 'bench-app-2'];
const MODES = ['realtime', 'batch'];
let serial = 0;
/** A fresh 24-hex id per call, as the emulator's ids (counter at the end). */
export const hex = () => (0x10000000 + serial++).toString(16).padStart(24, '0');
const t0 = Date.now() - 3_600_000;
/** A fresh ISO string per record, as clock.nowIso() gives; ten records per millisecond. */
export const iso = (i) => new Date(t0 + Math.floor(i / 10)).toISOString();

export function fillNotifications(store, count) {
  for (let i = 0; i < count; i++)
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
}

/** A flat string of `n` characters, unique per call (a request body parsed off the wire is not shared). */
const flat = (prefix, n) => Buffer.from(`${prefix}${'x'.repeat(n)}`).toString('latin1');

/** `count` entries whose bodies fill `bodyBudget` characters in all (the journal's text cap). */
export function fillJournal(store, count, bodyBudget) {
  const bodyChars = Math.floor(bodyBudget / count / 2) - 16;
  for (let i = 0; i < count; i++)
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
}

/**
 * `campaigns` campaigns sharing `recipients` recipients, each a CSV row's shape (two text
 * variables); every third campaign sent (its recipients sent or failed, with delivery ids),
 * and each campaign's users looked up once (the index a POST …/recipients builds).
 */
export async function fillRecipients(store, campaigns, recipients) {
  const perCampaign = Math.ceil(recipients / campaigns);
  for (let c = 0; c < campaigns; c++) {
    const campaignId = hex();
    const createdAt = iso(c);
    const sent = c % 3 === 0;
    store.addCampaign({
      id: campaignId,
      appId: APPS[c % 2],
      name: `Campaign ${c}`,
      templateId: 'tpl-0',
      status: sent ? 'sent' : 'draft',
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
    for (let r = 0; r < perCampaign; r++)
      list.push({
        id: hex(),
        campaignId,
        appId: APPS[c % 2],
        userId: `user-${(c * perCampaign + r) % 100_000}`,
        variables: { name: `User ${r}`, city: 'Lyon' },
        status: 'pending',
        failureReason: null,
        deliveryId: null,
        createdAt,
        updatedAt: createdAt,
      });
    store.addRecipients(campaignId, list);
    if (sent)
      for (const [r, recipient] of list.entries())
        store.updateRecipient(campaignId, recipient.id, {
          status: r % 10 === 0 ? 'failed' : 'sent',
          failureReason: r % 10 === 0 ? 'device unreachable' : null,
          deliveryId: hex(),
          updatedAt: iso(c + 1),
        });
    store.hasRecipient(campaignId, 'user-0');
    await turn(0);
  }
}

/** The fields every delivery of send `i` shares, as the domain hands them to the store. */
export const sharedFields = (i, mode, createdAt) => ({
  appId: APPS[i % 2],
  notificationId: `notif_${hex()}`,
  campaignId: null,
  templateId: `tpl-${i % 5}`,
  templateKey: `template-${i % 5}`,
  channels: i % 4 === 0 ? IN_APP_AND_PUSH : IN_APP,
  mode,
  title: null,
  tag: mode === 'batch' ? 'bench' : i % 3 === 0 ? `tag-${i % 7}` : null,
  pushData: null,
  createdAt,
});
// A template's channels: one array each, as the template's own is shared by its sends.
const IN_APP = ['in_app'];
const IN_APP_AND_PUSH = ['in_app', 'push'];

/** What a template's content renders to (one renderer per template, as the emulator compiles it). */
export const render = () => ({ in_app: { title: 'Hello', body: 'Welcome' } });
const FAILED = new Map([[0, { reason: 'Delivery failed (scenario)', scenario: 'flaky' }]]);

/**
 * `count` realtime sends of one delivery each (one in 100 failed), sent from `first` on: each
 * with its notification id, time, user id string and variables object of its own, as a request
 * parsed off the wire gives them, its delivery id from `ids`. Returns the last send's fields.
 */
export function fillRealtimeDeliveries(store, ids, count, first = 0) {
  let shared;
  for (let i = first; i < first + count; i++) {
    shared = sharedFields(i, 'realtime', iso(100 + i * 10));
    const batch = { shared, userIds: [`user-${(i * 7) % 100_000}`], variables: { all: { name: `Ada ${i % 100}` } } };
    store.addDeliveries({ ...batch, render, failures: i % 100 === 0 ? FAILED : new Map() }, ids);
  }
  return shared;
}

export async function fillAnalytics(store, count) {
  for (let i = 0; i < count; i++) {
    if (i % 2048 === 0) await turn(0);
    store.addAnalyticsEvent({
      id: `evt_${hex()}`,
      appId: APPS[i % 2],
      campaignId: `notif_${(i % 50_000).toString(16).padStart(24, '0')}`,
      userId: `user-${i % 100_000}`,
      channelType: 'in_app',
      eventType: ['delivered', 'viewed', 'clicked'][i % 3],
      createdAt: iso(i),
    });
  }
}
