/**
 * The background campaign runner in isolation (domain/campaign-runner.ts), on a runtime the
 * test drives: each deferred turn is run by hand and the monotonic clock moves as the test
 * says, so how many batches a turn delivers, and what halt(), close() and a second start of
 * the same campaign do, are checked without timers.
 */
import { describe, expect, it } from 'vitest';
import { createCampaignRunner } from '../../src/domain/campaign-runner.js';
import { NO_DELIVERY_FAULTS, type DeliveryFaultPolicy } from '../../src/domain/ports.js';
import { sendDeps } from '../helpers/send-deps.js';
import { campaign, recipient } from '../helpers/store-contract/records.js';

/** 130 recipients: three batches of at most 64. */
const RECIPIENTS = 130;

/**
 * `tick`: how far the monotonic clock moves each time the runner reads it (it reads it once
 * when a turn starts and once after each batch); it starts at 1,000, not 0.
 */
function setup({ chunkBudgetMs, tick = 0 }: { chunkBudgetMs?: number; tick?: number } = {}) {
  const { deps, events } = sendDeps({ listening: false });
  const { store, templates } = deps;
  const deferred: (() => void)[] = [];
  let now = 1_000;
  const runner = createCampaignRunner({
    ...deps,
    runtime: { defer: (fn) => deferred.push(fn), elapsed: () => (now += tick) },
    ...(chunkBudgetMs === undefined ? {} : { chunkBudgetMs }),
  });
  const plainId = templates.findByKey('app-a', 'plain')!.id;
  /** A draft campaign of `appId` with `count` pending recipients. */
  const draft = (id: string, appId = 'app-a', count = RECIPIENTS) => {
    store.addCampaign(campaign(id, { appId, templateId: plainId, recipientCount: count }));
    store.addRecipients(
      id,
      Array.from({ length: count }, (_, n) => recipient(id, n, { appId })),
    );
    return store.getCampaign(id)!;
  };
  /** Runs the deferred turns in order until none is left; how many ran. */
  const runTurns = (): number => {
    let turns = 0;
    for (let fn = deferred.shift(); fn; fn = deferred.shift()) {
      fn();
      turns++;
    }
    return turns;
  };
  const state = (id: string) => {
    const c = store.getCampaign(id)!;
    return {
      status: c.status,
      sent: c.sentCount,
      failed: c.failedCount,
      pending: store.countRecipients(id, { status: 'pending' }),
    };
  };
  const campaignEvents = (id: string) =>
    events.flatMap((e) => (e.type === 'campaign' && e.campaign.id === id ? [e.campaign.status] : []));
  return { runner, store, deferred, draft, runTurns, state, campaignEvents };
}

describe('campaign runner', () => {
  it('delivers every batch in one turn while the time budget (5 ms by default) is not spent', () => {
    const { runner, draft, runTurns, state, campaignEvents } = setup();
    runner.start(draft('c1'), NO_DELIVERY_FAULTS);
    expect(runTurns()).toBe(1);
    expect(state('c1')).toEqual({ status: 'sent', sent: RECIPIENTS, failed: 0, pending: 0 });
    expect(campaignEvents('c1')).toEqual(['sending', 'sent']);
  });

  it('fails every recipient, naming why and with no delivery id, when its template is gone', () => {
    const { runner, store, runTurns, state } = setup();
    store.addCampaign(campaign('c9', { appId: 'app-a', templateId: 'gone', recipientCount: 2 }));
    store.addRecipients('c9', [recipient('c9', 0), recipient('c9', 1)]);
    runner.start(store.getCampaign('c9')!, NO_DELIVERY_FAULTS);
    runTurns();
    expect(state('c9')).toEqual({ status: 'failed', sent: 0, failed: 2, pending: 0 });
    const why = 'template gone no longer exists';
    expect([...store.recipients('c9')].map((r) => [r.status, r.failureReason, r.deliveryId])).toEqual([
      ['failed', why, null],
      ['failed', why, null],
    ]);
  });

  it('yields after a batch once the turn has used its budget, to the millisecond', () => {
    const { runner, draft, runTurns, state } = setup({ tick: 5 });
    runner.start(draft('c1'), NO_DELIVERY_FAULTS);
    expect(runTurns()).toBe(3);
    expect(state('c1')).toMatchObject({ status: 'sent', sent: RECIPIENTS });
  });

  it('takes a larger budget as given', () => {
    const { runner, draft, runTurns, state } = setup({ chunkBudgetMs: 100, tick: 10 });
    runner.start(draft('c1'), NO_DELIVERY_FAULTS);
    expect(runTurns()).toBe(1);
    expect(state('c1')).toMatchObject({ status: 'sent', sent: RECIPIENTS });
  });

  it('marks the recipients a fault fails, and ends failed only when every one failed', () => {
    const { runner, draft, runTurns, state, store } = setup();
    const some: DeliveryFaultPolicy = ({ userId }) =>
      userId === 'user-2' ? { reason: 'unreachable', scenario: 's' } : null;
    const all: DeliveryFaultPolicy = () => ({ reason: 'down', scenario: 's' });
    runner.start(draft('c1', 'app-a', 3), some);
    runner.start(draft('c2', 'app-a', 2), all);
    runTurns();
    expect(state('c1')).toEqual({ status: 'sent', sent: 2, failed: 1, pending: 0 });
    expect([...store.recipients('c1')].map((r) => [r.status, r.failureReason])).toEqual([
      ['sent', null],
      ['sent', null],
      ['failed', 'unreachable'],
    ]);
    expect(state('c2')).toEqual({ status: 'failed', sent: 0, failed: 2, pending: 0 });
  });

  it('halt(appId) stops that app’s sends before their next turn and leaves the others running', () => {
    const { runner, draft, runTurns, state } = setup();
    runner.start(draft('a1', 'app-a'), NO_DELIVERY_FAULTS);
    runner.start(draft('b1', 'app-b'), NO_DELIVERY_FAULTS);
    runner.halt('app-a');
    runTurns();
    expect(state('a1')).toEqual({ status: 'sending', sent: 0, failed: 0, pending: RECIPIENTS });
    expect(state('b1')).toMatchObject({ status: 'sent', sent: RECIPIENTS, pending: 0 });
  });

  it('halt() stops every send, and a halted send can be resumed to the end', () => {
    const { runner, store, draft, runTurns, state, campaignEvents } = setup();
    runner.start(draft('a1', 'app-a'), NO_DELIVERY_FAULTS);
    runner.start(draft('b1', 'app-b'), NO_DELIVERY_FAULTS);
    runner.halt();
    expect(runTurns()).toBe(2);
    expect(state('a1').pending).toBe(RECIPIENTS);
    expect(state('b1').pending).toBe(RECIPIENTS);
    runner.resume(store.getCampaign('a1')!, NO_DELIVERY_FAULTS);
    runTurns();
    expect(state('a1')).toMatchObject({ status: 'sent', sent: RECIPIENTS });
    expect(campaignEvents('a1')).toEqual(['sending', 'sent']);
    expect(state('b1').status).toBe('sending');
  });

  it('delivers nothing more once closed', () => {
    const { runner, draft, runTurns, state } = setup({ tick: 5 });
    runner.start(draft('c1'), NO_DELIVERY_FAULTS);
    runTurns();
    runner.start(draft('c2'), NO_DELIVERY_FAULTS);
    runner.close();
    runTurns();
    expect(state('c1').status).toBe('sent');
    expect(state('c2')).toEqual({ status: 'sending', sent: 0, failed: 0, pending: RECIPIENTS });
  });

  it('runs a campaign once when it is resumed while it already runs', () => {
    const { runner, store, deferred, draft, runTurns, state, campaignEvents } = setup();
    runner.start(draft('c1'), NO_DELIVERY_FAULTS);
    runner.resume(store.getCampaign('c1')!, NO_DELIVERY_FAULTS);
    expect(deferred).toHaveLength(1);
    runTurns();
    expect(state('c1')).toMatchObject({ status: 'sent', sent: RECIPIENTS });
    expect(campaignEvents('c1')).toEqual(['sending', 'sent']);
  });

  it('resumes only a campaign that is sending', () => {
    const { runner, deferred, draft, state } = setup();
    runner.resume(draft('c1'), NO_DELIVERY_FAULTS);
    expect(deferred).toHaveLength(0);
    expect(state('c1')).toMatchObject({ status: 'draft', pending: RECIPIENTS });
  });
});
