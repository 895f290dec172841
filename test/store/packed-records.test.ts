/**
 * The packed forms under the recipient and analytics stores: a sealed string column gives
 * back exactly what it was given, whichever form it chose; and a snapshot (what the data
 * file writer reads over many turns) stays the state of its moment while records are
 * added, changed, sealed and dropped after it. Small blocks, so that a few records span many.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  counterAfter,
  counterAt,
  DeflatableColumn,
  RunPrefixes,
  sealStrings,
  type StringColumn,
} from '../../src/store/common/string-column.js';
import { PackedText } from '../../src/store/common/packed-text.js';
import { sealVariables, sharedKeyOrder, startVariablesSealing } from '../../src/store/common/variables-column.js';
import { CampaignRecipients } from '../../src/store/campaigns/recipient-list.js';
import { AnalyticsLog } from '../../src/store/analytics/analytics-log.js';
import type { AnalyticsEvent } from '../../src/schemas/analytics.js';
import { recipient } from '../helpers/store-contract.js';

const counterId = fc
  .tuple(fc.constantFrom('65a1b2c3d4e5f6a7b8', 'evt_', 'x'), fc.integer({ min: 0, max: 0xffffff }))
  .map(([prefix, n]) => prefix + n.toString(16).padStart(6, '0'));
const isoTime = fc
  .integer({ min: -62_000_000_000_000, max: 250_000_000_000_000 })
  .map((ms) => new Date(ms).toISOString());
const value = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 8 }),
  counterId,
  counterId.map((id) => id.toUpperCase()),
  isoTime,
  isoTime.map((t) => t.replace('Z', '+00:00')),
  // Date.parse takes these, toISOString never gives them.
  fc.constantFrom(
    '2026-02-30T00:00:00.000Z',
    '2026-02-29T12:00:00.000Z',
    '2026-01-01T24:00:00.000Z',
    '0000-04-31T00:00:00.000Z',
  ),
  fc.constantFrom('', 'a', 'same'),
);

describe('sealStrings', () => {
  it('gives back every value exactly, whichever form takes least room', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(value, { maxLength: 300 }),
          fc.array(counterId, { maxLength: 300 }),
          fc.array(isoTime),
          fc.array(
            fc.oneof(
              isoTime,
              fc.constantFrom('2026-02-30T00:00:00.000Z', '2024-02-29T23:59:59.999Z', '2026-01-01T24:00:00.000Z'),
            ),
          ),
        ),
        (values) => {
          const column = sealStrings(values);
          expect(column.length).toBe(values.length);
          expect(Array.from({ length: values.length }, (_, i) => column.at(i))).toEqual(values);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('counterAt', () => {
  it('reads six lower-case hex digits in place, as a parse of their slice would, and -1 for anything else', () => {
    // Six characters among the digits and those on either side of each range, somewhere in a text.
    const near = fc.string({ unit: fc.constantFrom(...'0123456789abcdef/:@`gAFG'), minLength: 6, maxLength: 6 });
    const text = fc.tuple(fc.string({ maxLength: 20 }), near, fc.string({ maxLength: 4 }));
    fc.assert(
      fc.property(text, fc.integer({ min: -3, max: 3 }), ([before, digits, after], shift) => {
        const s = before + digits + after;
        const from = before.length + shift;
        const read = from >= 0 ? s.slice(from, from + 6) : '';
        const expected = /^[0-9a-f]{6}$/.test(read) ? Number.parseInt(read, 16) : -1;
        expect(counterAt(s, from)).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('counterAfter and RunPrefixes', () => {
  const hex = fc.string({ unit: fc.constantFrom(...'0123456789abcdefgA'), minLength: 5, maxLength: 7 });
  const prefixes = fc.constantFrom('', 'ab', 'notif_ab', 'notif_ac');

  it('reads the counter of a prefix and six lower-case hex digits, and -1 for anything else', () => {
    fc.assert(
      fc.property(prefixes, prefixes, hex, (asked, given, digits) => {
        const expected = asked === given && /^[0-9a-f]{6}$/.test(digits) ? Number.parseInt(digits, 16) : -1;
        expect(counterAfter(given + digits, asked)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('gives an id its prefix as splitCounter does, whichever ids came before', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(prefixes, hex), { maxLength: 30 }), (ids) => {
        const prefixesOf = new RunPrefixes();
        for (const [prefix, digits] of ids) {
          const id = prefix + digits;
          expect(prefixesOf.of(id)).toBe(id.length > 6 && /[0-9a-f]{6}$/.test(id) ? id.slice(0, -6) : null);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('sealStrings, deflatable', () => {
  // Variables' text as an upload gives it: long, alike, now and then outside Latin-1.
  const longValue = fc
    .tuple(
      fc.constantFrom('{"url":"https://picsum.photos/seed/', 'Ümit ', '🙂 '),
      fc.string({ unit: 'binary', maxLength: 12 }),
    )
    .map(([start, rest]) => `${start}${rest}/300/300"}`);
  const formOf = (column: object) => column.constructor.name;
  /** The column deflated when it may be (as its owner deflates it later). */
  const deflated = (column: StringColumn) => {
    if (column instanceof DeflatableColumn) column.deflate();
    return column;
  };
  const all = (column: StringColumn) => Array.from({ length: column.length }, (_, i) => column.at(i));

  it('gives back every value exactly, before and after deflating, Latin-1 or not, lone surrogates too', () => {
    fc.assert(
      fc.property(fc.array(longValue, { minLength: 300, maxLength: 700 }), (values) => {
        const column = sealStrings(values, { deflatable: true });
        expect(column.length).toBe(values.length);
        expect(all(column)).toEqual(values);
        expect(all(deflated(column))).toEqual(values);
      }),
      { numRuns: 40 },
    );
  });

  it('makes a long packed column deflatable, never a short one or one not allowed to be', () => {
    const values = Array.from({ length: 2048 }, (_, i) => `{"url":"https://picsum.photos/seed/${i}/300/300"}`);
    expect(formOf(sealStrings(values))).toBe('PackedColumn');
    expect(formOf(sealStrings(values.slice(0, 100), { deflatable: true }))).toBe('PackedColumn');
    const column = sealStrings(values, { deflatable: true }) as DeflatableColumn;
    expect([column.deflated, column.tried]).toEqual([false, false]);
    column.deflate();
    expect([column.deflated, column.tried]).toEqual([true, true]);
    expect([column.at(2047), column.at(0), column.at(1000)]).toEqual([values[2047], values[0], values[1000]]);
    // Members of one width keep no lengths at all.
    const alike = Array.from({ length: 1500 }, (_, i) => `value-${String(i).padStart(20, '0')}-x`);
    const sameWidth = deflated(sealStrings(alike, { deflatable: true })) as DeflatableColumn;
    expect(sameWidth.deflated).toBe(true);
    expect(all(sameWidth)).toEqual(alike);
    // Members' lengths kept a byte each, two bytes each past 255, four past 65,535.
    for (const long of ['x'.repeat(300), 'y'.repeat(70_000)]) {
      const mixed = [...values.slice(0, 500), long, ...values.slice(500, 1000)];
      expect(all(deflated(sealStrings(mixed, { deflatable: true })))).toEqual(mixed);
    }
    // Text deflate cannot shrink stays packed: CJK text kept two bytes a character, with little to share.
    const noise = Array.from({ length: 2048 }, (_, i) =>
      Array.from({ length: 12 }, (_, k) => String.fromCharCode(0x4e00 + ((i * 7919 + k * 104_729) % 20_000))).join(''),
    );
    const noisy = deflated(sealStrings(noise, { deflatable: true })) as DeflatableColumn;
    expect([noisy.deflated, noisy.tried]).toEqual([false, true]);
    expect(all(noisy)).toEqual(noise);
  });

  it('deflates packed text in parts, a fraction of its size for alike values', () => {
    const values = Array.from({ length: 2048 }, (_, i) => `{"url":"https://picsum.photos/seed/${i % 7}/300/300"}${i}`);
    const packed = PackedText.of(values);
    const text = packed.deflated();
    expect(text.bytes).toBeLessThan(packed.bytes / 4);
    expect(Array.from({ length: values.length }, (_, i) => text.at(i))).toEqual(values);
    expect([text.at(-1), text.at(values.length)]).toEqual([undefined, undefined]);
  });
});

describe('sealVariables', () => {
  const key = fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('name', 'city', '__proto__', 'constructor', '0'));
  const json = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 6 }),
    fc.integer(),
    fc.constant(null),
    fc.array(fc.nat()),
  );
  // Rows that share their text keys (an upload's), or differ in keys, order or value types.
  const shared = fc.uniqueArray(key, { maxLength: 4 }).chain((keys) =>
    fc.array(
      fc
        .tuple(...keys.map(() => fc.option(fc.oneof(value, json), { nil: undefined })))
        .map((values) => Object.fromEntries(keys.flatMap((k, i) => (values[i] === undefined ? [] : [[k, values[i]]])))),
      { maxLength: 80 },
    ),
  );
  const mixed = fc.array(fc.dictionary(key, json, { maxKeys: 3 }), { maxLength: 80 });

  it("gives back every row's variables exactly, keyed or as JSON, stopped anywhere", () => {
    fc.assert(
      fc.property(fc.oneof(shared, mixed), fc.array(fc.nat(5), { maxLength: 30 }), (all, stops) => {
        const rows = all.map((variables) => ({ variables }));
        const sealing = startVariablesSealing();
        let column = null;
        for (let attempt = 0; column === null; attempt++) {
          let asks = stops[attempt] ?? Infinity;
          column = sealVariables(rows, sealing, () => asks-- <= 0);
        }
        expect(column.length).toBe(rows.length);
        rows.forEach(({ variables }, i) => {
          const back = column.at(i);
          expect(back).toEqual(variables);
          expect(Object.keys(back)).toEqual(Object.keys(variables));
          expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
        });
      }),
      { numRuns: 200 },
    );
  });

  it('deflates its long columns one at a time when asked, stopped anywhere, and reads the same', () => {
    const rows = Array.from({ length: 300 }, (_, i) => ({
      variables: { name: `Customer ${i}`, banner: { url: `https://picsum.photos/seed/${i}/1080/1080`, width: 1080 } },
    }));
    const column = sealVariables(rows, startVariablesSealing(), () => false)!;
    const before = rows.map((_, i) => column.at(i));
    expect(column.deflate(() => true)).toBe(false);
    let asks = 0;
    while (!column.deflate(() => asks++ % 2 === 1));
    expect(rows.map((_, i) => column.at(i))).toEqual(before);
    expect(before).toEqual(rows.map((r) => r.variables));
  });

  it('keeps a column per key while every row names its keys in one order', () => {
    const rows = (...all: Record<string, unknown>[]) => all.map((variables) => ({ variables }));
    expect(sharedKeyOrder(rows({ a: 'x', b: 'y' }, { a: '', b: { url: 'z' } }))).toEqual(['a', 'b']);
    // Optional cells left empty: each row's keys a part of the header's order.
    expect(sharedKeyOrder(rows({ a: 'x', c: 'y' }, { b: 'x', c: 'y' }, { a: 'x', b: 1 }))).toEqual(['a', 'b', 'c']);
    expect(sharedKeyOrder(rows({ a: 'x', d: 'y' }, { c: 'x', d: 'y' }, { a: 'x', b: '', c: '' }))).toEqual([
      'a',
      'b',
      'c',
      'd',
    ]);
    expect(sharedKeyOrder(rows({}, {}))).toEqual([]);
    expect(sharedKeyOrder(rows({ a: 'x', b: 'y' }, { b: 'y', a: 'x' }))).toBeNull();
    expect(sharedKeyOrder(rows({ a: 'x', c: 'y' }, { c: 'x', b: 'y' }, { b: 'x', a: 1 }))).toBeNull();
    expect(sharedKeyOrder(rows(JSON.parse('{"__proto__":"x"}') as Record<string, unknown>))).toBeNull();
    const many = Object.fromEntries(Array.from({ length: 65 }, (_, k) => [`k${k}`, 'v']));
    expect(sharedKeyOrder(rows(many))).toBeNull();
  });
});

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('snapshots of packed records', () => {
  it('recipients: a snapshot keeps its moment through later adds, updates and sealing, stopped anywhere', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), count: fc.integer({ min: 1, max: 20 }) }),
      fc.record({
        kind: fc.constant('update' as const),
        pick: fc.nat(40),
        status: fc.constantFrom('sent' as const, 'failed' as const),
      }),
      // A seal stopped after `asks` questions to `spent` (a slice's end), to go on later.
      fc.record({ kind: fc.constant('seal' as const), asks: fc.option(fc.nat(12)) }),
      fc.constant({ kind: 'snapshot' as const }),
    );
    fc.assert(
      // Blocks of 70 seal their variables' texts over more than one slice (64 rows at a time).
      fc.property(fc.constantFrom(3, 70), fc.array(op, { maxLength: 30 }), (blockSize, ops) => {
        const list = new CampaignRecipients(blockSize);
        let model: ReturnType<typeof recipient>[] = [];
        const snapshots: { frozen: Iterable<unknown>; expected: unknown[] }[] = [];
        ops.forEach((o, serial) => {
          if (o.kind === 'add') {
            const rows = Array.from({ length: o.count }, (_, k) => recipient('c1', serial * 100 + k));
            list.add(rows);
            model = [...model, ...rows];
          } else if (o.kind === 'update') {
            const target = model[o.pick % Math.max(1, model.length)];
            const patch = { status: o.status, deliveryId: `65a1b2c3d4e5f6a7b8${String(serial).padStart(6, '0')}` };
            expect(list.update(target?.id ?? 'nobody', patch)).toBe(target !== undefined);
            model = model.map((r) => (r === target ? { ...r, ...patch } : r));
          } else if (o.kind === 'seal') {
            let asks = o.asks ?? Infinity;
            list.seal(() => asks-- <= 0);
          } else snapshots.push({ frozen: list.frozen(), expected: structuredClone(model) });
        });
        expect([...list]).toEqual(model);
        for (const status of ['pending', 'sent', 'failed'])
          expect(list.count(status)).toBe(model.filter((r) => r.status === status).length);
        for (const { frozen, expected } of snapshots) expect([...frozen]).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });

  it('analytics events: a snapshot and each user keep their events through adds, drops, clears, sealing', async () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), count: fc.integer({ min: 1, max: 9 }) }),
      fc.record({ kind: fc.constant('clear' as const), appId: fc.constantFrom('app-a', 'app-b') }),
      fc.constant({ kind: 'tick' as const }),
      fc.constant({ kind: 'snapshot' as const }),
    );
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 20 }), fc.array(op, { maxLength: 30 }), async (max, ops) => {
        let log = new AnalyticsLog(max, [], undefined, 4);
        let model: AnalyticsEvent[] = [];
        let dropped = 0;
        const snapshots: { frozen: Iterable<AnalyticsEvent>; expected: AnalyticsEvent[] }[] = [];
        for (const [serial, o] of ops.entries()) {
          if (o.kind === 'tick') await tick();
          else if (o.kind === 'snapshot') snapshots.push({ frozen: log.frozen(), expected: model });
          else if (o.kind === 'clear') {
            log = log.withoutApp(o.appId);
            model = model.filter((e) => e.appId !== o.appId);
          } else
            for (let k = 0; k < o.count; k++) {
              const event: AnalyticsEvent = {
                id: `evt_65a1b2c3d4e5f6a7b8${(serial * 10 + k).toString(16).padStart(6, '0')}`,
                appId: k % 2 === 0 ? 'app-a' : 'app-b',
                campaignId: 'c1',
                userId: `u${(serial + k) % 5}`,
                channelType: 'push',
                eventType: serial % 2 === 0 ? 'viewed' : 'clicked',
                createdAt: new Date(Date.UTC(2030, 0, 1, 0, serial, k)).toISOString(),
              };
              log.add(event);
              model = [...model, event];
              if (model.length > max) {
                model = model.slice(-max);
                dropped++;
              }
            }
        }
        expect([...log.frozen()]).toEqual(model);
        expect([log.length, log.dropped]).toEqual([model.length, dropped]);
        for (const appId of ['app-a', 'app-b'])
          expect([...log.ofApp(appId)]).toEqual(model.filter((e) => e.appId === appId));
        for (const appId of ['app-a', 'app-b'])
          for (const userId of ['u0', 'u1', 'u2', 'u3', 'u4', 'nobody']) {
            const events = model.filter((e) => e.appId === appId && e.userId === userId);
            expect(log.ofUser(appId, userId)).toEqual(events);
            expect(log.findOfUser(appId, userId, (field) => field('eventType') === 'clicked')).toEqual(
              events.findLast((e) => e.eventType === 'clicked'),
            );
          }
        for (const { frozen, expected } of snapshots) expect([...frozen]).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });
});
