/** Shared steps of the analytics tests: a send through two channel types, an event body, counts per day. */
import { expect } from 'vitest';
import type { EmulatorApp } from '../../src/index.js';
import type { ChannelMetrics } from './api-types.js';
import { CTA, call, send } from './app.js';

/** order-confirmation delivers through in_app and push. */
export async function sendOrder(app: EmulatorApp, userId: string, appId = 'app-test'): Promise<string> {
  const res = await send(
    app,
    {
      template: { key: 'order-confirmation', variables: { customerName: 'Ada', cta: CTA } },
      targets: [userId],
      mode: 'realtime',
    },
    { appId },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.notificationId;
}

export const event = (campaignId: string, eventType: string, channelType = 'in_app', userId = 'user-1') => ({
  campaignId,
  userId,
  channelType,
  eventType,
});

export const DAY = 86_400_000;

/** Delivered counts per day of the range, by channel type. */
export async function deliveredPerDay(app: EmulatorApp, from: string, to: string): Promise<Record<string, number[]>> {
  const res = await call<ChannelMetrics[]>(app, 'GET', `/api/analytics/channels?from=${from}&to=${to}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return Object.fromEntries(res.body.map((m) => [m.channelType, m.timeSeries.map((b) => b.delivered)]));
}
