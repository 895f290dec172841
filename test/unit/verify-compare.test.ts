/**
 * verify's comparison, without HTTP: the shape of an answer (field names and JSON kinds,
 * list items by their union), the differences two answers have and how they are named, and
 * the battery's promise that no probe can deliver or store anything.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shapeDifferences, shapeOf } from '../../src/tools/verify/shape.js';
import { compareAnswers, templateValueDifferences, type ProbeAnswer } from '../../src/tools/verify/compare.js';
import { ABSENT_CAMPAIGN_ID, ABSENT_TEMPLATE_KEY, BATTERY, probeTarget } from '../../src/tools/verify/battery.js';

const SEED = 20261202;
const json = (status: number, body: unknown, contentType = 'application/json'): ProbeAnswer => ({
  status,
  contentType,
  text: JSON.stringify(body),
});
const envelope = (code: string, extra: Record<string, unknown> = {}) => ({
  error: { code, message: 'm', devMessage: 'd', ...extra },
});
const template = (overrides: Record<string, unknown> = {}) => ({
  id: '665b2c3d4e5f6a7b8c9d0e1f',
  templateId: 'order-shipped',
  name: 'Order Shipped',
  status: 'approved',
  category: 'transactional',
  channelIds: ['c1'],
  variableSchema: { orderId: { type: 'string', name: 'Order', required: true } },
  createdAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

describe('the shape of an answer', () => {
  it('finds no difference between any JSON value and itself, nor between values of one shape', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(shapeDifferences(shapeOf(value), shapeOf(structuredClone(value)), 'x')).toEqual([]);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('names the same positions whichever side is live, with the sides swapped', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        const forth = shapeDifferences(shapeOf(a), shapeOf(b), 'r');
        const back = shapeDifferences(shapeOf(b), shapeOf(a), 'r');
        const swapped = (line: string) =>
          line
            .replace(/only live$/, 'only EMU')
            .replace(/only emulator$/, 'only live')
            .replace(/only EMU$/, 'only emulator')
            .replace(/^(.*): (.*) live, (.*) emulator$/, '$1: $3 live, $2 emulator');
        expect(back).toEqual(forth.map(swapped));
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('names a field every listed item gained, once, as only live', () => {
    const item = fc.dictionary(
      fc.string({ minLength: 1 }).filter((k) => k !== 'x_new'),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(fc.array(item, { minLength: 1, maxLength: 5 }), (items) => {
        const changed = items.map((t) => ({ ...t, x_new: 'vendor' }));
        expect(shapeDifferences(shapeOf(changed), shapeOf(items), 'templates')).toEqual([
          'templates[].x_new: only live',
        ]);
      }),
      { seed: SEED, numRuns: 200 },
    );
  });

  it('takes list items as the union of their shapes, and says nothing about the items of an empty list', () => {
    const live = [{ a: 1 }, { b: 'x' }];
    expect(shapeDifferences(shapeOf(live), shapeOf([{ a: 2, b: 'y' }]), 'l')).toEqual([]);
    expect(shapeDifferences(shapeOf([{ a: 1 }]), shapeOf([]), 'campaigns')).toEqual([]);
    expect(shapeDifferences(shapeOf([{ a: 1 }, { a: 'one' }]), shapeOf([{ a: 2 }]), 'l')).toEqual([
      'l[].a: number or string live, number emulator',
    ]);
  });

  it('names a changed type at its path, recursively', () => {
    const live = { error: { code: 'E', details: { targets: 5 } } };
    const emulator = { error: { code: 'E', details: { targets: 'at most 10000' } } };
    expect(shapeDifferences(shapeOf(live), shapeOf(emulator), '')).toEqual([
      'error.details.targets: number live, string emulator',
    ]);
    expect(shapeDifferences(shapeOf([]), shapeOf({}), '')).toEqual(['(body): array live, object emulator']);
  });
});

describe('comparing two answers', () => {
  const options = { root: 'templates', templateValues: true };

  it('finds nothing when the answers differ only in generated values (ids, times, counts)', () => {
    const live = json(200, [template({ createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-02-01T00:00:00Z' })]);
    const emulator = json(200, [
      template({ createdAt: '2030-05-05T10:00:00.000Z', updatedAt: '2030-05-05T10:00:00Z' }),
    ]);
    expect(compareAnswers(live, emulator, options)).toEqual([]);
    const campaigns = (id: string, recipientCount: number) => json(200, [{ id, recipientCount }]);
    expect(compareAnswers(campaigns('a1', 3), campaigns('b2', 1500), { root: 'campaigns' })).toEqual([]);
  });

  it('names the status, the error code and the envelope keys that differ', () => {
    expect(
      compareAnswers(
        json(422, envelope('ERR_TARGET_LIMIT_EXCEEDED')),
        json(400, envelope('ERR_TARGET_LIMIT_EXCEEDED')),
        {
          root: 'notification',
        },
      ),
    ).toEqual(['status 422 live, 400 emulator']);
    expect(compareAnswers(json(404, envelope('ERR_X')), json(404, envelope('ERR_Y')), { root: 'n' })).toEqual([
      'error.code: ERR_X live, ERR_Y emulator',
    ]);
    expect(
      compareAnswers(json(400, envelope('ERR_BAD_REQUEST')), json(400, envelope('ERR_BAD_REQUEST', { details: {} })), {
        root: 'n',
      }),
    ).toEqual(['error.details: only emulator']);
  });

  it('names a body that is not JSON and a media type that differs, without failing', () => {
    const html: ProbeAnswer = {
      status: 502,
      contentType: 'text/html; charset=utf-8',
      text: '<html>bad gateway</html>',
    };
    expect(compareAnswers(html, json(404, envelope('ERR_NOT_FOUND')), { root: 'b' })).toEqual([
      'status 502 live, 404 emulator',
      'content-type: text/html live, application/json emulator',
      'body: not JSON live, JSON emulator',
    ]);
    expect(compareAnswers(html, { ...html, text: 'other text' }, { root: 'b' })).toEqual([]);
  });

  it("compares the templates' own values, matched by id, and skips the emulator's extension fields", () => {
    const live = json(200, [template({ name: 'Order Sent', content: { in_app: {} } }), template({ id: 'only-here' })]);
    const emulator = json(200, [template({ key: 'order-shipped', source: 'fixture', channels: ['push'] })]);
    expect(compareAnswers(live, emulator, options)).toEqual([
      'templates[id=665b2c3d4e5f6a7b8c9d0e1f].name: "Order Sent" live, "Order Shipped" emulator',
      'templates[id=only-here]: only live',
    ]);
  });

  it('does not match list items one to one when a list may be one page of a longer one', () => {
    const page = Array.from({ length: 100 }, (_, i) => template({ id: `id-${i}` }));
    expect(templateValueDifferences(page, [template({ id: 'other' })], 'templates')).toEqual([]);
  });

  it('compares a single template by its fields, a kind change being named once, by the shape', () => {
    const live = json(200, template({ createdAt: 1767225600000, status: 'archived' }));
    expect(compareAnswers(live, json(200, template()), { root: 'template', templateValues: true })).toEqual([
      'template.createdAt: number live, string emulator',
      'template.status: "archived" live, "approved" emulator',
    ]);
  });
});

describe('the battery', () => {
  const context = { template: { id: 'abc', key: 'order-shipped' }, templateKeys: new Set(['order-shipped']) };

  it('has at least ten probes, each with a distinct name and a reason it is safe', () => {
    expect(BATTERY.length).toBeGreaterThanOrEqual(10);
    expect(new Set(BATTERY.map((p) => p.name)).size).toBe(BATTERY.length);
    for (const probe of BATTERY) expect(probe.safe.length, probe.name).toBeGreaterThan(5);
  });

  it('is the table docs/verify.md lists, probe for probe, each with why it is safe', () => {
    const guide = readFileSync('docs/verify.md', 'utf8');
    const table = guide.slice(guide.indexOf('| probe | request | why it is safe |'));
    const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2);
    const cells = rows.map((row) => row.split('|').map((c) => c.trim()));
    expect(cells.map((c) => c[1])).toEqual(BATTERY.map((p) => p.name));
    for (const c of cells) expect(c[3], c[1]).toBe(BATTERY.find((p) => p.name === c[1])!.safe);
  });

  it('writes only what names a template key or a campaign id no account has, or cannot be read', () => {
    for (const probe of BATTERY.filter((p) => p.method !== 'GET')) {
      const target = probeTarget(probe, context);
      expect('path' in target, probe.name).toBe(true);
      const { path } = target as { path: string };
      const absent = path.includes(ABSENT_CAMPAIGN_ID) || probe.body?.includes(`"key":"${ABSENT_TEMPLATE_KEY}"`);
      expect(absent, probe.name).toBe(true);
    }
  });

  it('skips what needs a template when the account has none, and the sends when it has the absent key', () => {
    const none = { template: null, templateKeys: new Set<string>() };
    const skipped = BATTERY.filter((p) => 'skipped' in probeTarget(p, none)).map((p) => p.name);
    expect(skipped).toEqual(['template by id', 'template by key', 'template channels']);
    const clash = { ...context, templateKeys: new Set([ABSENT_TEMPLATE_KEY]) };
    const sends = BATTERY.filter((p) => 'skipped' in probeTarget(p, clash)).map((p) => p.name);
    expect(sends).toEqual(BATTERY.filter((p) => p.namesAbsentTemplate).map((p) => p.name));
    expect(sends.length).toBe(4);
  });
});
