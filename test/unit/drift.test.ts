/**
 * The drift rules on hand-made snapshots, for the kinds the live-account tests cannot produce
 * (an emulator keeps ids stable): ids, a missing channels file, a channel gone live, and
 * differences on a template that cannot be sent anyway.
 */
import { describe, expect, it } from 'vitest';
import { compareSnapshots } from '../../src/tools/drift.js';
import type { AccountSnapshot, ChannelSnapshot, TemplateSnapshot } from '../../src/tools/fixture-set.js';

const template = (over: Partial<TemplateSnapshot> = {}): TemplateSnapshot => ({
  id: 'a'.repeat(24),
  explicitId: true,
  key: 'order',
  name: 'Order',
  status: 'approved',
  category: null,
  channels: ['in_app'],
  channelIds: [],
  rows: null,
  variables: { orderId: { type: 'string', name: 'orderId', required: true } },
  content: { in_app: { title: 'Order {{orderId}}' } },
  ...over,
});
const channel: ChannelSnapshot = {
  id: 'c'.repeat(24),
  key: 'inbox',
  name: 'Inbox',
  type: 'in_app',
  templateType: 'ui',
  enabled: true,
  categoryFilter: false,
  templateLabel: false,
};
const snap = (templates: TemplateSnapshot[], channels: ChannelSnapshot[] | null = []): AccountSnapshot => ({
  templates,
  channels,
});
const kinds = (fixtures: AccountSnapshot, live: AccountSnapshot) =>
  compareSnapshots(fixtures, live).map((d) => [d.kind, d.breaking]);

describe('compareSnapshots', () => {
  it('finds nothing between equal snapshots', () => {
    expect(compareSnapshots(snap([template()], [channel]), snap([template()], [channel]))).toEqual([]);
  });

  it('an id written in the fixture that differs live is breaking; one derived from the key is not', () => {
    const live = snap([template({ id: 'b'.repeat(24) })]);
    expect(kinds(snap([template()]), live)).toEqual([['template-id', true]]);
    expect(kinds(snap([template({ explicitId: false })]), live)).toEqual([['template-id', false]]);
  });

  it('differences on a draft fixture template never break (sends are refused on both sides)', () => {
    const fixtures = snap([template({ status: 'draft', variables: {} })]);
    const live = snap([template({ status: 'archived' })]);
    expect(kinds(fixtures, live)).toEqual([
      ['template-status', false],
      ['variable-added', false],
    ]);
    expect(kinds(snap([template({ status: 'draft' })]), snap([]))).toEqual([['template-missing-live', false]]);
  });

  it('reports a missing channels file once, and channels gone live', () => {
    expect(kinds(snap([], null), snap([], [channel]))).toEqual([['channels-file-missing', false]]);
    expect(kinds(snap([], null), snap([], []))).toEqual([]);
    const [gone] = compareSnapshots(snap([], [channel]), snap([], []));
    expect(gone).toMatchObject({ kind: 'channel-missing-live', breaking: false, channel: 'inbox' });
  });

  it('names at most five differing content paths', () => {
    const many = (v: string) => Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`f${i}`, `${v}${i}`]));
    const [d] = compareSnapshots(
      snap([template({ content: { in_app: many('x') } })]),
      snap([template({ content: { in_app: many('y') } })]),
    );
    expect(d!.message).toBe(
      'template "order": content of channel in_app differs: ' +
        'f0: live "y0", fixtures "x0"; f1: live "y1", fixtures "x1"; ' +
        'f2: live "y2", fixtures "x2"; f3: live "y3", fixtures "x3"; f4: live "y4", fixtures "x4"; …',
    );
  });

  it("reports a channel's content present on one side only", () => {
    const push = { title: 'Push {{orderId}}' };
    const onlyLive = compareSnapshots(
      snap([template()]),
      snap([template({ content: { ...template().content, push } })]),
    );
    expect(onlyLive).toMatchObject([
      { kind: 'content', breaking: false, channel: 'push', fixtures: undefined, live: push },
    ]);
    expect(onlyLive[0]!.message).toBe('template "order": content of channel push exists only on the live account');
    const onlyFixtures = compareSnapshots(
      snap([template({ content: { ...template().content, push } })]),
      snap([template()]),
    );
    expect(onlyFixtures[0]!.message).toBe('template "order": content of channel push exists only in the fixtures');
  });

  it('reports linked channel ids that differ when the types agree', () => {
    const fixtures = snap([template({ channelIds: ['c'.repeat(24)] })]);
    const live = snap([template({ channelIds: ['d'.repeat(24)] })]);
    expect(compareSnapshots(fixtures, live)).toMatchObject([{ kind: 'template-channels', field: 'channelIds' }]);
  });
});
