/**
 * The one-call send service in isolation (domain/notifications.ts): the order of checks,
 * the records it stores and the events it emits, with a manual clock and a seeded random.
 */
import { describe, expect, it } from 'vitest';
import { createNotificationService } from '../../src/domain/notifications.js';
import { ApiError } from '../../src/domain/errors.js';
import { createMemoryStore } from '../../src/store/memory-store.js';
import { createTemplateCatalog } from '../../src/catalog/templates.js';
import { createChannelCatalog } from '../../src/catalog/channels.js';
import { toTemplate } from '../../src/catalog/load-fixtures.js';
import { TemplateFileEntrySchema } from '../../src/schemas/template-file.js';
import { EmulatorClock } from '../../src/platform/clock.js';
import { AppClocks } from '../../src/platform/app-clocks.js';
import { createIds, createRandom } from '../../src/platform/random.js';
import { NO_DELIVERY_FAULTS, type EmulatorEvent } from '../../src/domain/ports.js';
import { TEST_TEMPLATES } from '../helpers/app.js';

function setup() {
  const clock = new EmulatorClock('2030-03-03T00:00:00.000Z');
  const store = createMemoryStore();
  const templates = createTemplateCatalog(
    store,
    TEST_TEMPLATES.map((t) => toTemplate(TemplateFileEntrySchema.parse(t), '2030-03-03T00:00:00.000Z')),
  );
  const events: EmulatorEvent[] = [];
  const service = createNotificationService({
    store,
    templates,
    channels: createChannelCatalog(store),
    clocks: new AppClocks(clock),
    ids: createIds(clock, createRandom(3)),
    events: { emit: (e) => events.push(e), subscribe: () => () => true, hasSubscribers: () => true },
  });
  return { service, store, events };
}

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
});
