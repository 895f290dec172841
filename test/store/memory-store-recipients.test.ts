/**
 * The memory store's recipient lookups by id: in list order (a campaign send, the position
 * after the last one found), any order (a search), and recipients added after them.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/index.js';
import { recipient } from '../helpers/store-contract.js';

describe('memory store: recipients by id', () => {
  it('updates recipients in list order, out of order, after more are added, and ignores unknown ids', () => {
    const store = createMemoryStore();
    store.addRecipients(
      'c1',
      [1, 2, 3, 4].map((n) => recipient('c1', n)),
    );
    store.updateRecipient('c1', 'c1-r1', { status: 'sent' });
    store.updateRecipient('c1', 'c1-r2', { status: 'sent' });
    store.updateRecipient('c1', 'c1-r4', { status: 'failed' });
    store.updateRecipient('c1', 'c1-r3', { status: 'sent' });
    store.updateRecipient('c1', 'nope', { status: 'failed' });
    store.updateRecipient('c2', 'c1-r1', { status: 'failed' });
    store.addRecipients('c1', [recipient('c1', 5), recipient('c1', 6)]);
    store.updateRecipient('c1', 'c1-r6', { status: 'failed' });
    store.updateRecipient('c1', 'c1-r5', { status: 'sent' });
    expect([...store.recipients('c1')].map((r) => [r.id, r.status])).toEqual([
      ['c1-r1', 'sent'],
      ['c1-r2', 'sent'],
      ['c1-r3', 'sent'],
      ['c1-r4', 'failed'],
      ['c1-r5', 'sent'],
      ['c1-r6', 'failed'],
    ]);
    expect(store.hasRecipient('c1', 'user-6')).toBe(true);
  });
});
