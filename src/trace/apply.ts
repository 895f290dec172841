/**
 * Puts a checked trace in place of the running state (--import, POST /__import): every
 * record, the clocks, the scenarios with their app sets, counters and random draws, the apps
 * open mode knows and the id sequence; or one app's records, clock and scenario state only,
 * the rest left as they are.
 */
import type { Emulator } from '../emulator.js';
import type { AppState } from '../domain/ports.js';
import type { CountersSnapshot } from '../scenario-engine/counters.js';
import type { ScenarioStateSnapshot } from '../scenario-engine/engine.js';
import type { Campaign, CampaignUpload } from '../schemas/records.js';
import type { StoreData } from '../store/store-data.js';
import type { Trace } from './schema.js';

type ApplyParts = Pick<
  Emulator,
  'store' | 'clock' | 'clocks' | 'ids' | 'apps' | 'scenarios' | 'services' | 'traceOrigin'
>;

/** Each app's own clock and active set, as the store keeps them (the data file has them after a restart). */
function appStatesOf(trace: Trace, appId: string | undefined): AppState[] {
  const { clocks, scenarios } = trace;
  const ids = new Set([...Object.keys(clocks.apps), ...Object.keys(scenarios.active.apps)]);
  return [...ids]
    .filter((id) => appId === undefined || id === appId)
    .map((id) => ({ appId: id, clock: clocks.apps[id] ?? null, activeScenarios: scenarios.active.apps[id] ?? null }));
}

/** The trace's records as the store holds them, of one app when given. */
function storeDataOf(trace: Trace, appId: string | undefined): StoreData {
  const mine = <T extends { appId: string | null }>(list: T[]) =>
    appId === undefined ? list : list.filter((r) => r.appId === appId);
  return {
    deliveries: mine(trace.deliveries),
    droppedDeliveries: appId === undefined ? trace.droppedDeliveries : 0,
    notifications: mine(trace.notifications),
    campaigns: mine(trace.campaigns),
    recipients: mine(trace.recipients),
    campaignUploads: uploadsOf(trace.campaignUploads, mine(trace.campaigns)),
    journal: mine(trace.journal),
    templates: mine(trace.templates),
    channels: mine(trace.channels),
    templateChannels: mine(trace.templateChannels),
    analyticsEvents: mine(trace.analyticsEvents),
    appStates: appStatesOf(trace, appId),
  };
}

/** The uploads of `campaigns` (an upload names its campaign, not its app). */
function uploadsOf(uploads: CampaignUpload[], campaigns: Campaign[]): CampaignUpload[] {
  const ids = new Set(campaigns.map((c) => c.id));
  return uploads.filter((u) => ids.has(u.campaignId));
}

/** The running records without `appId`'s, followed by the trace's records of that app. */
function mergedWithApp(current: StoreData, imported: StoreData, appId: string): StoreData {
  const others = <T extends { appId: string | null }>(list: T[]) => list.filter((r) => r.appId !== appId);
  const merged = { ...current };
  for (const key of Object.keys(current) as (keyof StoreData)[]) {
    if (key === 'droppedDeliveries' || key === 'campaignUploads') continue;
    (merged[key] as unknown[]) = [...others(current[key] as { appId: string | null }[]), ...imported[key]];
  }
  merged.campaignUploads = [
    ...uploadsOf(current.campaignUploads, others(current.campaigns)),
    ...imported.campaignUploads,
  ];
  return merged;
}

/** The trace's scenario state as the engine takes it back. */
function scenarioStateOf({ scenarios }: Trace): ScenarioStateSnapshot {
  const counters: CountersSnapshot = scenarios.counters.map((c) => [
    c.layer as CountersSnapshot[number][0],
    c.scenario,
    c.rule,
    c.matched,
    c.applied,
  ]);
  return { apps: scenarios.active.apps, counters, headerActivated: scenarios.headerActivated, draws: scenarios.draws };
}

/**
 * Replaces the running state with the trace's (one app's when `appId` is given) and notes
 * where it came from (`fileName`: the file's name when known), which the overview shows.
 */
export function applyTrace(parts: ApplyParts, trace: Trace, appId: string | undefined, fileName: string | null) {
  const { store, clock, clocks, ids, apps, scenarios, services } = parts;
  // First: no scheduled start nor running send of the state being replaced may go on.
  services.campaigns.stopAll(appId);
  if (appId === undefined) {
    apps.reset();
    for (const app of trace.apps) apps.remember(app.appId);
    for (const name of scenarios.names()) scenarios.remove(name);
    for (const { scenario, source } of trace.scenarios.loaded) scenarios.load(scenario, source);
    scenarios.setActive(trace.scenarios.active.global.filter((name) => scenarios.has(name)));
    scenarios.restore(scenarioStateOf(trace));
    clocks.release();
    const { now, mode } = trace.clocks.shared;
    if (mode === 'manual') clock.set(now);
    else clock.useRealTime();
    clocks.restore(trace.clocks.apps);
    // Last: the store takes the apps' own clocks and sets from the trace, whatever the calls above saved.
    store.restore(storeDataOf(trace, undefined));
    ids.resume(trace.ids);
  } else {
    apps.remember(appId);
    scenarios.restore(scenarioStateOf(trace), appId);
    const ownClock = trace.clocks.apps[appId];
    if (ownClock) clocks.restore({ [appId]: ownClock });
    else clocks.release(appId);
    store.restore(mergedWithApp(store.snapshot(), storeDataOf(trace, appId), appId));
    // The running ids go on; from the same machine prefix, past the trace's too.
    const running = ids.sequence();
    if (running.machine === trace.ids.machine && trace.ids.counter > running.counter) ids.resume(trace.ids);
  }
  // Scheduled campaigns are armed again and half-sent ones go on, as after a restart with a data file.
  services.campaigns.restore(scenarios.deliveryFaults([]));
  const { exportedAt, emulatorVersion } = trace;
  return (parts.traceOrigin.current = { fileName, exportedAt, emulatorVersion, appId: appId ?? null });
}
