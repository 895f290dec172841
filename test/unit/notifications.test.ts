/**
 * The one-call send service in isolation (domain/notifications.ts): the order of checks,
 * the records it stores and the events it emits, with a manual clock and a seeded random.
 */
import { describe, expect, it } from 'vitest';
import { createNotificationService } from '../../src/domain/notifications.js';
import { ApiError } from '../../src/domain/errors.js';
import { NO_DELIVERY_FAULTS } from '../../src/domain/ports.js';
import { sendDeps } from '../helpers/send-deps.js';

function setup({ listening = true }: { listening?: boolean } = {}) {
  const { deps, events } = sendDeps({ listening });
  return { service: createNotificationService(deps), store: deps.store, events };
}

const errorOf = (fn: () => unknown): ApiError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
};

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error.code;
    throw error;
  }
  return 'none';
};

describe('notification service', () => {
  it('stores one notification and one delivery per distinct target, and emits them', () => {
    const { service, store, events } = setup();
    const n = service.send(
      'app',
      { template: { key: 'plain' }, targets: ['a', 'b', 'a'], mode: 'batch' },
      NO_DELIVERY_FAULTS,
    );
    expect(n.createdAt).toBe('2030-03-03T00:00:00.000Z');
    expect(store.queryDeliveries({}, { limit: 10, offset: 0 }).total).toBe(2);
    expect(store.queryNotifications({}, { limit: 10, offset: 0 }).items[0]).toMatchObject({
      targetCount: 2,
      sentCount: 2,
      failedCount: 0,
    });
    expect(events.map((e) => e.type)).toEqual(['notification', 'delivery', 'delivery']);
  });

  it('records failed deliveries from the fault policy', () => {
    const { service, store } = setup();
    const faults = ({ userId }: { userId: string }) =>
      userId === 'b' ? { reason: 'device unreachable', scenario: 's' } : null;
    service.send('app', { template: { key: 'plain' }, targets: ['a', 'b'], mode: 'batch' }, faults as never);
    const items = store.queryDeliveries({}, { limit: 10, offset: 0 }).items;
    expect(items.map((d) => [d.userId, d.status, d.failureReason])).toEqual([
      ['a', 'sent', null],
      ['b', 'failed', 'device unreachable'],
    ]);
    expect(store.queryNotifications({}, { limit: 10, offset: 0 }).items[0]).toMatchObject({
      sentCount: 1,
      failedCount: 1,
    });
  });

  it('marks every target the policy fails, counts them, and a later send without failures has none', () => {
    const { service, store } = setup();
    const failing = new Set(['b', 'c']);
    const faults = ({ userId }: { userId: string }) =>
      failing.has(userId) ? { reason: `${userId} unreachable`, scenario: 's' } : null;
    service.send('app', { template: { key: 'plain' }, targets: ['a', 'b', 'c', 'd'], mode: 'batch' }, faults as never);
    // A policy without `idle`: it is asked for every target.
    service.send('app', { template: { key: 'plain' }, targets: ['e', 'f'], mode: 'batch' }, (() => null) as never);
    const items = store.queryDeliveries({}, { limit: 10, offset: 0 }).items;
    expect(items.map((d) => [d.userId, d.status, d.failureReason])).toEqual([
      ['a', 'sent', null],
      ['b', 'failed', 'b unreachable'],
      ['c', 'failed', 'c unreachable'],
      ['d', 'sent', null],
      ['e', 'sent', null],
      ['f', 'sent', null],
    ]);
    expect(store.queryNotifications({}, { limit: 10, offset: 0 }).items.map((n) => n.failedCount)).toEqual([2, 0]);
  });

  it('counts a send whose every target fails as that many failures, no more', () => {
    const { service, store } = setup();
    const faults = () => ({ reason: 'down', scenario: 's' });
    service.send('app', { template: { key: 'plain' }, targets: ['a', 'b'], mode: 'batch' }, faults as never);
    expect(store.queryNotifications({}, { limit: 10, offset: 0 }).items[0]).toMatchObject({
      targetCount: 2,
      sentCount: 0,
      failedCount: 2,
    });
    expect(store.queryDeliveries({ status: 'failed' }, { limit: 10, offset: 0 }).total).toBe(2);
  });

  it('builds a delivery event’s record when it is read, once', () => {
    const { service, events } = setup();
    service.send('app', { template: { key: 'plain' }, targets: ['a', 'b'], mode: 'batch' }, NO_DELIVERY_FAULTS);
    const [, first, second] = events as { type: string; delivery: { userId: string } }[];
    expect(first!.delivery).toMatchObject({ userId: 'a', status: 'sent', templateKey: 'plain' });
    expect(first!.delivery).toBe(first!.delivery);
    expect(second!.delivery.userId).toBe('b');
  });

  it('emits no delivery event while nobody listens', () => {
    const { service, events } = setup({ listening: false });
    service.send('app', { template: { key: 'plain' }, targets: ['a', 'b'], mode: 'batch' }, NO_DELIVERY_FAULTS);
    expect(events.map((e) => e.type)).not.toContain('delivery');
  });

  it.each([
    ['mode before target count', { template: { key: 'nope' }, targets: ['a', 'b'], mode: 'x' }, 'ERR_INVALID_MODE'],
    [
      'target count before lookup',
      { template: { key: 'nope' }, targets: ['a', 'b'], mode: 'realtime' },
      'ERR_TARGET_LIMIT_EXCEEDED',
    ],
    [
      'lookup before status',
      { template: { key: 'nope', variables: { z: 1 } }, targets: ['a'], mode: 'realtime' },
      'ERR_NOT_FOUND',
    ],
    [
      'status before variables',
      { template: { key: 'draft-one', variables: { z: 1 } }, targets: ['a'], mode: 'realtime' },
      'ERR_TEMPLATE_NOT_APPROVED',
    ],
    [
      'variables',
      { template: { key: 'plain', variables: { z: 1 } }, targets: ['a'], mode: 'realtime' },
      'ERR_INVALID_VARIABLES',
    ],
  ])('%s', (_what, body, code) => {
    const { service, store } = setup();
    expect(codeOf(() => service.send('app', body as never, NO_DELIVERY_FAULTS))).toBe(code);
    expect(store.queryDeliveries({}, { limit: 1, offset: 0 }).total).toBe(0);
  });

  // Without variables a batch's targets share the one empty set, so each missing variable is one
  // problem, not one per target: 10,000 targets must not answer 20,000 lines.
  it.each([
    ['no variables', undefined],
    ['an empty object', {}],
  ])('a batch with %s names each missing required variable once, whatever the target count', (_what, variables) => {
    const { service, store } = setup();
    const error = errorOf(() =>
      service.send(
        'app',
        { template: { key: 'order-confirmation', variables }, targets: ['a', 'b'], mode: 'batch' },
        NO_DELIVERY_FAULTS,
      ),
    );
    expect(error.code).toBe('ERR_INVALID_VARIABLES');
    expect(error.details).toEqual({
      'template.variables.customerName': 'is required by the template (type "string")',
      'template.variables.cta': 'is required by the template (type "action")',
    });
    expect(store.queryDeliveries({}, { limit: 1, offset: 0 }).total).toBe(0);
  });
});
