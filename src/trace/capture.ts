/**
 * What an export writes: the emulator's state as a TraceSource, taken at one instant without
 * copying records (the store's persistable view stays that instant's while it streams out).
 */
import type { Emulator } from '../emulator.js';
import { retentionOf } from '../config.js';
import { realNow } from '../platform/clock.js';
import { VERSION } from '../version.js';
import { PASSED_OVER, TRACE_FORMAT, TRACE_VERSION, type TraceSource } from './schema.js';

type TraceParts = Pick<Emulator, 'store' | 'clock' | 'clocks' | 'ids' | 'apps' | 'scenarios' | 'options'>;

/** How an app's key shows in a trace: whether one was configured, never what it is. */
export const MASKED_KEY = '***';

/** Yields the records of `list` that belong to `appId` (every one when undefined), PASSED_OVER for the others. */
function* ofApp<T extends { appId: string | null }>(
  list: Iterable<T>,
  appId: string | undefined,
): Iterable<T | typeof PASSED_OVER> {
  for (const record of list) yield appId === undefined || record.appId === appId ? record : PASSED_OVER;
}

/** The ids of app `appId`'s campaigns (an upload names its campaign, not its app). */
const campaignIdsOf = (data: { campaigns: Iterable<{ id: string; appId: string }> }, appId: string) =>
  new Set([...data.campaigns].filter((c) => c.appId === appId).map((c) => c.id));

/** Yields the records of `list` of a campaign of `ids` (every one when undefined), PASSED_OVER for the others. */
function* ofCampaigns<T extends { campaignId: string }>(
  list: Iterable<T>,
  ids: Set<string> | undefined,
): Iterable<T | typeof PASSED_OVER> {
  for (const record of list) yield ids === undefined || ids.has(record.campaignId) ? record : PASSED_OVER;
}

/** The state of `parts` now (one app's when `appId` is given) as a trace to write. */
export function captureTrace(parts: TraceParts, appId?: string): TraceSource {
  const { store, clock, clocks, ids, apps, scenarios, options } = parts;
  const data = store.persistable();
  const state = scenarios.snapshot(appId);
  const ownClock = appId === undefined ? null : clocks.stateOf(appId);
  const { seed } = options;
  return {
    format: TRACE_FORMAT,
    version: TRACE_VERSION,
    emulatorVersion: VERSION,
    exportedAt: new Date(realNow()).toISOString(),
    appId: appId ?? null,
    options: {
      seed: seed ?? null,
      authMode: apps.mode,
      adminTokenRequired: options.adminToken !== undefined,
      activeScenarios: options.activeScenarios,
      limits: retentionOf(options),
    },
    clocks: {
      shared: { now: clock.nowIso(), mode: clock.mode },
      apps: appId === undefined ? clocks.snapshot() : ownClock ? { [appId]: ownClock } : {},
    },
    ids: ids.sequence(),
    apps: apps
      .list()
      .filter((app) => appId === undefined || app.appId === appId)
      .map(({ appId: id, apiKey, region }) => ({
        appId: id,
        apiKey: apiKey ? MASKED_KEY : '',
        ...(region ? { region } : {}),
      })),
    scenarios: {
      loaded: scenarios.names().map((name) => ({ source: scenarios.sourceOf(name)!, scenario: scenarios.get(name)! })),
      active: { global: scenarios.active(), apps: state.apps },
      counters: state.counters.map(([layer, scenario, rule, matched, applied]) => ({
        layer,
        scenario,
        rule,
        matched,
        applied,
      })),
      headerActivated: state.headerActivated,
      draws: state.draws,
    },
    droppedDeliveries: appId === undefined ? data.droppedDeliveries : 0,
    templates: ofApp(data.templates, appId),
    channels: ofApp(data.channels, appId),
    templateChannels: ofApp(data.templateChannels, appId),
    campaigns: ofApp(data.campaigns, appId),
    recipients: ofApp(data.recipients, appId),
    campaignUploads: ofCampaigns(data.campaignUploads, appId === undefined ? undefined : campaignIdsOf(data, appId)),
    notifications: ofApp(data.notifications, appId),
    deliveries: ofApp(data.deliveries, appId),
    journal: ofApp(data.journal, appId),
    analyticsEvents: ofApp(data.analyticsEvents, appId),
  };
}
