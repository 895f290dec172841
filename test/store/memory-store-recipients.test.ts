/**
 * The memory store's recipient lookups by id: in list order (a campaign send, the position
 * after the last one found), any order (a search), and recipients added after them; and
 * batches settled by position, as a campaign send settles them.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createMemoryStore } from '../../src/index.js';
import { CampaignRecipients } from '../../src/store/campaigns/recipient-list.js';
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

describe('recipients settled a batch at a time (a campaign send)', () => {
  it('finds recipients added to a block after every earlier one was settled', () => {
    const list = new CampaignRecipients(64);
    list.add([1, 2, 3].map((n) => recipient('c1', n)));
    const first = list.pending(10);
    list.settle(first.positions, { at: 'then', reason: () => null, deliveryId: () => null });
    expect(list.pending(10).positions).toEqual([]);
    list.add([4, 5].map((n) => recipient('c1', n)));
    expect(list.pending(10).positions).toEqual([3, 4]);
  });

  it('widens its codes past 255 strings, in a block sealed or not, snapshots keeping theirs', () => {
    // Added at one time (their codes start 8 bits wide), each settled alone, at a time, for a
    // reason and with a delivery id of its own: 300 strings each, more than 8-bit codes name.
    for (const sealed of [false, true]) {
      const list = new CampaignRecipients(512);
      const model = Array.from({ length: 300 }, (_, n) =>
        recipient('c1', n, { updatedAt: '2030-01-01T00:00:00.000Z' }),
      );
      list.add(model.map((r) => ({ ...r })));
      if (sealed) list.seal(() => false);
      const frozen = list.frozen();
      const before = structuredClone(model);
      for (let n = 0; n < 300; n++) {
        const at = new Date(Date.UTC(2030, 0, 1, 0, 0, n)).toISOString();
        const outcome = { status: n % 2 ? 'failed' : 'sent', failureReason: n % 2 ? `reason ${n}` : null };
        list.settle(list.pending(1).positions, {
          at,
          reason: () => outcome.failureReason,
          deliveryId: () => `delivery-${n}`,
        });
        Object.assign(model[n]!, { ...outcome, deliveryId: `delivery-${n}`, updatedAt: at });
      }
      expect([...list]).toEqual(model);
      expect([...frozen]).toEqual(before);
    }
  });

  it("hands out pending recipients' variables read from the block, sealed or not, not the records' objects", () => {
    // An upload's records hold their text as slices of the file's chunks: a delivery holding
    // those objects would keep the whole file alive after the block is sealed.
    const list = new CampaignRecipients(64);
    list.add(Array.from({ length: 10 }, (_, n) => recipient('c1', n)));
    const pending = list.pending(4);
    if (!('eachAt' in pending.variables)) throw new Error('the variables are not read from the block');
    const before = pending.variables.eachAt(1);
    expect(before).toEqual(recipient('c1', 1).variables);
    list.seal(() => false);
    expect(pending.variables.eachAt(1)).toEqual(before);
    expect(pending.variables.eachAt(1)).not.toBe(before);
  });

  it('seals every block, then deflates their long variables, stopped anywhere, reading the same throughout', () => {
    const list = new CampaignRecipients(64);
    const records = Array.from({ length: 200 }, (_, n) =>
      recipient('c1', n, {
        variables: { note: `${n} `.padEnd(300, 'x'), banner: { url: `https://example.com/${n}` } },
      }),
    );
    list.add(records.map((r) => ({ ...r })));
    let asks = 0;
    while (!list.seal(() => asks++ % 3 === 2)) expect([...list]).toEqual(records);
    expect([...list]).toEqual(records);
    expect(asks).toBeGreaterThan(8);
  });

  it('marks each as its outcome says, sealed or not, across blocks, with counts and snapshots kept', () => {
    const outcome = fc.record({
      reason: fc.constantFrom(null, null, 'provider down', 'quota'),
      id: fc.constantFrom('run', 'run', 'run', 'plain', 'upper', 'none'),
    });
    fc.assert(
      fc.property(
        fc.constantFrom(3, 64),
        fc.integer({ min: 1, max: 300 }),
        fc.array(
          fc.record({
            max: fc.integer({ min: 1, max: 70 }),
            seal: fc.boolean(),
            snapshot: fc.boolean(),
            // A recipient put back to pending (any one), or more added: the next batch finds them.
            revive: fc.option(fc.nat(400)),
            add: fc.option(fc.integer({ min: 1, max: 5 })),
          }),
        ),
        fc.array(outcome, { minLength: 1, maxLength: 7 }),
        (blockSize, count, batches, outcomes) => {
          const list = new CampaignRecipients(blockSize);
          const model = Array.from({ length: count }, (_, n) =>
            recipient('c1', n, { status: n % 5 === 0 ? 'sent' : 'pending' }),
          );
          list.add(model.map((r) => ({ ...r })));
          const snapshots: { frozen: Iterable<unknown>; expected: unknown[] }[] = [];
          for (const [serial, batch] of batches.entries()) {
            if (batch.revive !== null && model.length > 0) {
              const r = model[batch.revive % model.length]!;
              list.update(r.id, { status: 'pending' });
              r.status = 'pending';
            }
            if (batch.add !== null) {
              const more = Array.from({ length: batch.add }, (_, k) => recipient('c1', 1000 * (serial + 1) + k));
              list.add(more.map((r) => ({ ...r })));
              model.push(...more);
            }
            if (batch.seal) list.seal(() => false);
            if (batch.snapshot) snapshots.push({ frozen: list.frozen(), expected: structuredClone(model) });
            const pending = list.pending(batch.max);
            const of = (k: number) => outcomes[k % outcomes.length]!;
            const deliveryId = (k: number) => {
              const counter = ((serial << 10) + k).toString(16).padStart(6, '0');
              const { id } = of(k);
              if (id === 'none') return null;
              if (id === 'plain') return `d-${serial}-${k}`;
              return `65a1b2c3d4e5f6a7b8${id === 'upper' ? counter.toUpperCase() : counter}`;
            };
            const at = new Date(Date.UTC(2030, 0, 1, 0, serial)).toISOString();
            list.settle(pending.positions, { at, reason: (k) => of(k).reason, deliveryId });
            const due = model.filter((r) => r.status === 'pending').slice(0, pending.positions.length);
            expect(pending.positions.map((p) => model[p]!.id)).toEqual(due.map((r) => r.id));
            due.forEach((r, k) =>
              Object.assign(r, {
                status: of(k).reason === null ? 'sent' : 'failed',
                failureReason: of(k).reason,
                deliveryId: deliveryId(k),
                updatedAt: at,
              }),
            );
          }
          expect([...list]).toEqual(model);
          for (const status of ['pending', 'sent', 'failed'])
            expect(list.count(status)).toBe(model.filter((r) => r.status === status).length);
          for (const { frozen, expected } of snapshots) expect([...frozen]).toEqual(expected);
        },
      ),
      { numRuns: 150 },
    );
  });
});
