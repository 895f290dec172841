/**
 * The delivery log's entry indexes (src/store/deliveries/delivery-index.ts) against a list of
 * the entries filed: for any filter on the shared fields, the entries a plan reads are those
 * whose fields match, with their members and failures counted; the entries whose ids begin
 * as an id does are found; the channels are those some live entry went through. Entries are
 * filed and dropped oldest first, with sequence numbers that may wrap past 2^32.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DeliveryFilter, SharedDeliveryFields } from '../../src/domain/ports.js';
import type { KeyEntries } from '../../src/store/common/counted-index.js';
import { DeliveryIndexes } from '../../src/store/deliveries/delivery-index.js';
import { idBlock } from '../../src/store/deliveries/delivery-entries.js';

const blockOf = (id: string | null) => (id === null ? null : idBlock(id));

interface Filed {
  shared: SharedDeliveryFields;
  idPrefix: string;
  seq: number;
  members: number;
  failed: number;
}

const APPS = ['app-a', 'app-b'];
const CHANNELS = ['push', 'email', 'in_app'];
/** Notification ids in two blocks (idBlock): ids of one block share its key. */
const NOTIFICATIONS = [
  'notif_6650a1b2c3d4e5f6a7b8c001',
  'notif_6650a1b2c3d4e5f6a7b8c002',
  'notif_6650a1b2c3d4e5f6a7b8d001',
  'n-1',
];
const PREFIXES = ['6650a1b2c3d4e5f6a7b8', '6650a1b2c3d4e5f6a7b9', '6650a1b2c3d4e5f6a7b8c9d0'];

const sharedArb: fc.Arbitrary<SharedDeliveryFields> = fc
  .record({
    app: fc.nat(1),
    notification: fc.nat(NOTIFICATIONS.length),
    campaign: fc.nat(2),
    template: fc.nat(1),
    batch: fc.boolean(),
    tag: fc.nat(2),
    // Some deliveries name a channel twice.
    channels: fc.array(fc.nat(2), { maxLength: 3 }),
  })
  .map((r) => ({
    appId: APPS[r.app]!,
    notificationId: r.notification === 0 ? null : NOTIFICATIONS[r.notification - 1]!,
    campaignId: r.campaign === 0 ? null : `c-${r.campaign}`,
    templateId: `t-${r.template}`,
    templateKey: `key-${r.template}`,
    channels: r.channels.map((c) => CHANNELS[c]!) as SharedDeliveryFields['channels'],
    mode: r.batch ? 'batch' : 'realtime',
    title: null,
    tag: r.tag === 0 ? null : `tag-${r.tag}`,
    pushData: null,
    createdAt: '2030-01-01T00:00:00.000Z',
  }));

/** The values a filter may name per field: a few fields at a time, so that some entries match. */
const FILTER_VALUES: Record<string, readonly string[]> = {
  appId: [...APPS, 'app-none'],
  notificationId: [...NOTIFICATIONS, 'notif_6650a1b2c3d4e5f6a7b8c003'],
  campaignId: ['c-1', 'c-2'],
  templateKey: ['key-0', 'key-1'],
  templateId: ['t-0', 't-1'],
  mode: ['realtime', 'batch'],
  tag: ['tag-1', 'tag-2'],
  channel: CHANNELS,
};
const filterArb: fc.Arbitrary<DeliveryFilter> = fc
  .shuffledSubarray(Object.keys(FILTER_VALUES), { maxLength: 3 })
  .chain((names) =>
    fc
      .tuple(...names.map((name) => fc.constantFrom(...FILTER_VALUES[name]!)))
      .map((values) => names.reduce<DeliveryFilter>((f, name, i) => Object.assign(f, { [name]: values[i] }), {})),
  );

type Op =
  | { kind: 'file'; shared: SharedDeliveryFields; prefix: number; members: number; failed: number }
  /** An entry the log dropped before it was filed: its sequence number is never seen here. */
  | { kind: 'skip' }
  /** The oldest entry leaves the log: reads skip it at once. */
  | { kind: 'leave' }
  /** A later turn unfiles up to `entries` of those that left. */
  | { kind: 'unfile'; entries: number }
  | { kind: 'read'; filter: DeliveryFilter; id: string };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('file' as const),
      shared: sharedArb,
      prefix: fc.nat(2),
      members: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 4 })),
      failed: fc.oneof(fc.constant(0), fc.nat(4)),
    }),
  },
  fc.record({ kind: fc.constant('skip' as const) }),
  fc.record({ kind: fc.constant('leave' as const) }),
  fc.record({ kind: fc.constant('unfile' as const), entries: fc.nat(3) }),
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('read' as const),
      filter: filterArb,
      id: fc.constantFrom(...PREFIXES, `${PREFIXES[0]}0001`, `${PREFIXES[2]}ff`, '6650', ''),
    }),
  },
);

const matches = (shared: SharedDeliveryFields, filter: DeliveryFilter): boolean =>
  (filter.appId === undefined || shared.appId === filter.appId) &&
  (filter.notificationId === undefined || shared.notificationId === filter.notificationId) &&
  (filter.campaignId === undefined || shared.campaignId === filter.campaignId) &&
  (filter.templateKey === undefined || shared.templateKey === filter.templateKey) &&
  (filter.templateId === undefined || shared.templateId === filter.templateId) &&
  (filter.mode === undefined || shared.mode === filter.mode) &&
  (filter.tag === undefined || shared.tag === filter.tag) &&
  (filter.channel === undefined || (shared.channels as readonly string[]).includes(filter.channel));

/** The entries as read: sequence numbers, and members and failures before each. */
function read(entries: KeyEntries) {
  return {
    seqs: Array.from({ length: entries.count }, (_, k) => entries.at(k)),
    members: Array.from({ length: entries.count + 1 }, (_, k) => entries.membersBefore(k)),
    failed: Array.from({ length: entries.count + 1 }, (_, k) => entries.failedBefore(k)),
  };
}

function expected(found: readonly Filed[]) {
  let members = 0;
  let failed = 0;
  return {
    seqs: found.map((e) => e.seq >>> 0),
    members: [0, ...found.map((e) => (members += e.members))],
    failed: [0, ...found.map((e) => (failed += e.failed))],
  };
}

describe('DeliveryIndexes', () => {
  it('plans every filter as filtering the filed entries does, and finds ids and channels', () => {
    fc.assert(
      fc.property(
        fc.array(opArb, { maxLength: 50 }),
        fc.oneof(fc.constant(0), fc.constant(2 ** 32 - 4)),
        (ops, start) => {
          const indexes = new DeliveryIndexes();
          const live: Filed[] = [];
          let seq = start;
          for (const op of ops) {
            if (op.kind === 'file') {
              const entry = {
                shared: op.shared,
                idPrefix: PREFIXES[op.prefix]!,
                seq: seq++,
                members: op.members,
                failed: Math.min(op.failed, op.members),
              };
              indexes.file(entry.shared, entry.idPrefix, entry.seq, entry.members, entry.failed);
              live.push(entry);
            } else if (op.kind === 'skip') {
              seq++;
            } else if (op.kind === 'leave') {
              const oldest = live.shift();
              if (oldest) indexes.leave(oldest.shared, oldest.idPrefix, oldest.seq);
            } else if (op.kind === 'unfile') {
              indexes.unfileLeaving((done) => done >= op.entries);
            } else {
              const headSeq = (live[0]?.seq ?? seq) >>> 0;
              const plan = indexes.plan(op.filter, headSeq);
              // A notification's id is filed by its block of ids: the plan holds the block's
              // entries, with their counts, and the reader tests them for the id.
              const { notificationId, ...sansId } = op.filter;
              expect(plan.exact).toBe(notificationId === undefined);
              const inPlan = live.filter(
                (e) =>
                  matches(e.shared, sansId) &&
                  (notificationId === undefined || blockOf(e.shared.notificationId) === idBlock(notificationId)),
              );
              expect(read(plan.entries)).toEqual(expected(inPlan));
              expect(inPlan.filter((e) => matches(e.shared, op.filter))).toEqual(
                live.filter((e) => matches(e.shared, op.filter)),
              );
              const withId = indexes
                .withId(op.id)
                .flatMap((list) => Array.from({ length: list.count }, (_, k) => list.at(k)));
              expect(withId.sort((a, b) => a - b)).toEqual(
                live
                  .filter((e) => op.id.startsWith(e.idPrefix))
                  .map((e) => e.seq >>> 0)
                  .sort((a, b) => a - b),
              );
              expect(indexes.channels().sort()).toEqual(
                [...new Set(live.flatMap((e) => e.shared.channels as readonly string[]))].sort(),
              );
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('files a delivery through a channel named twice once under that channel', () => {
    const indexes = new DeliveryIndexes();
    const shared = fc.sample(sharedArb, { numRuns: 1, seed: 1 })[0]!;
    const twice = { ...shared, channels: ['push', 'email', 'push'] as SharedDeliveryFields['channels'] };
    indexes.file(twice, PREFIXES[0]!, 0, 2, 1);
    for (const filter of [{ channel: 'push' }, { channel: 'email' }, { channel: 'push', appId: shared.appId }]) {
      expect(read(indexes.plan(filter, 0).entries)).toEqual({ seqs: [0], members: [0, 2], failed: [0, 1] });
    }
    indexes.leave(twice, PREFIXES[0]!, 0);
    expect(indexes.plan({ channel: 'push' }, 1).entries.count).toBe(0);
    expect(indexes.channels()).toEqual([]);
    expect(indexes.unfileLeaving(() => false)).toBe(true);
    expect(indexes.plan({ channel: 'push' }, 1).entries.count).toBe(0);
    expect(indexes.channels()).toEqual([]);
  });

  it('finds an entry filed under an id as long as the one asked for', () => {
    const indexes = new DeliveryIndexes();
    const shared = fc.sample(sharedArb, { numRuns: 1, seed: 2 })[0]!;
    indexes.file(shared, 'abc', 0, 1, 0);
    indexes.file(shared, 'abcdef', 1, 3, 0);
    const seqs = (id: string) => indexes.withId(id).flatMap((l) => Array.from({ length: l.count }, (_, k) => l.at(k)));
    expect(seqs('abc')).toEqual([0]);
    expect(seqs('abcdef')).toEqual([0, 1]);
    expect(seqs('ab')).toEqual([]);
  });
});
