/**
 * Campaigns by app and status (src/store/campaigns/campaign-index.ts) against an array of
 * campaigns in creation order: any sequence of campaigns created, moved between statuses,
 * removed and cleared pages every filter as filtering the array does.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CampaignIndex } from '../../src/store/campaigns/campaign-index.js';
import type { CampaignFilter } from '../../src/domain/ports.js';

const APPS = ['a', 'b'];
const STATUSES = ['draft', 'scheduled', 'sending', 'sent'];

interface Row {
  id: string;
  appId: string;
  status: string;
}

type Op =
  | { kind: 'add'; app: number; status: number }
  | { kind: 'move'; pick: number; status: number }
  | { kind: 'remove'; pick: number }
  | { kind: 'clear' }
  | {
      kind: 'page';
      app?: number;
      status?: number;
      offset: number;
      limit: number;
      desc: boolean;
    };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('add' as const), app: fc.nat(1), status: fc.nat(3) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('move' as const), pick: fc.nat(20), status: fc.nat(3) }) },
  fc.record({ kind: fc.constant('remove' as const), pick: fc.nat(20) }),
  { weight: 1, arbitrary: fc.constant({ kind: 'clear' as const }) },
  {
    weight: 4,
    arbitrary: fc.record(
      {
        kind: fc.constant('page' as const),
        app: fc.nat(1),
        status: fc.nat(3),
        offset: fc.nat(4),
        limit: fc.nat(6),
        desc: fc.boolean(),
      },
      { requiredKeys: ['kind', 'offset', 'limit', 'desc'] },
    ),
  },
);

describe('CampaignIndex', () => {
  it('pages every filter as filtering the campaigns in creation order does', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => {
        const index = new CampaignIndex();
        let model: Row[] = [];
        let serial = 0;
        for (const op of ops) {
          if (op.kind === 'add') {
            const row = { id: `c${serial++}`, appId: APPS[op.app]!, status: STATUSES[op.status]! };
            index.add(row.id, row.appId, row.status);
            model.push(row);
          } else if (op.kind === 'move') {
            const row = model[op.pick];
            const status = STATUSES[op.status]!;
            if (row === undefined) {
              // An id the index does not hold: nothing moves.
              index.move(`c${serial + op.pick}`, APPS[0]!, STATUSES[0]!, status);
              continue;
            }
            index.move(row.id, row.appId, row.status, status);
            row.status = status;
          } else if (op.kind === 'remove') {
            const row = model[op.pick];
            if (row === undefined) {
              index.remove(`c${serial + op.pick}`, APPS[0]!, STATUSES[0]!);
              continue;
            }
            index.remove(row.id, row.appId, row.status);
            model = model.filter((r) => r !== row);
          } else if (op.kind === 'clear') {
            index.clear();
            model = [];
          } else {
            const filter: CampaignFilter = {};
            if (op.app !== undefined) filter.appId = APPS[op.app]!;
            if (op.status !== undefined) filter.status = STATUSES[op.status] as CampaignFilter['status'];
            const found = model
              .filter(
                (r) =>
                  (filter.appId === undefined || r.appId === filter.appId) &&
                  (filter.status === undefined || r.status === filter.status),
              )
              .map((r) => r.id);
            const ordered = op.desc ? found.reverse() : found;
            expect(
              index.page(filter, {
                offset: op.offset,
                limit: op.limit,
                ...(op.desc ? { order: 'desc' as const } : {}),
              }),
            ).toEqual({ total: found.length, items: ordered.slice(op.offset, op.offset + op.limit) });
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('moves a campaign back among the campaigns of its new status in creation order', () => {
    const index = new CampaignIndex();
    for (const id of ['c0', 'c1', 'c2', 'c3']) index.add(id, 'a', 'draft');
    index.move('c2', 'a', 'draft', 'sent');
    index.move('c0', 'a', 'draft', 'sent');
    index.move('c3', 'a', 'draft', 'sent');
    const all = { offset: 0, limit: 10 };
    expect(index.page({ status: 'sent' }, all)).toEqual({ total: 3, items: ['c0', 'c2', 'c3'] });
    expect(index.page({ appId: 'a', status: 'sent' }, all)).toEqual({ total: 3, items: ['c0', 'c2', 'c3'] });
    expect(index.page({ appId: 'a', status: 'draft' }, all)).toEqual({ total: 1, items: ['c1'] });
    expect(index.page({ appId: 'a' }, all)).toEqual({ total: 4, items: ['c0', 'c1', 'c2', 'c3'] });
    // Unchanged status: still filed once.
    index.move('c1', 'a', 'draft', 'draft');
    expect(index.page({ status: 'draft' }, all)).toEqual({ total: 1, items: ['c1'] });
    index.remove('c1', 'a', 'draft');
    expect(index.page({ status: 'draft' }, all)).toEqual({ total: 0, items: [] });
    expect(index.page({}, { offset: 1, limit: 1, order: 'desc' })).toEqual({ total: 3, items: ['c2'] });
  });

  it('keeps an app apart from a status its name would run into', () => {
    // The store answers any text: app "as" with status "ent" is not app "a" with status "sent".
    const index = new CampaignIndex();
    index.add('c0', 'a', 'sent');
    const all = { offset: 0, limit: 10 };
    expect(index.page({ appId: 'as', status: 'ent' }, all)).toEqual({ total: 0, items: [] });
    expect(index.page({ appId: 'a', status: 'sent' }, all)).toEqual({ total: 1, items: ['c0'] });
  });
});
