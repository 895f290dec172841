/**
 * Puts a checked trace in place of the running state (--import, POST /__import): every
 * record, the clock, the scenarios with their counters, the apps open mode knows and the id
 * sequence; or one app's records only, the rest left as they are.
 */
import type { z } from 'zod';
import type { Emulator } from '../emulator.js';
import type { TraceOriginSchema } from '../schemas/responses.js';
import type { StoreData } from '../store/store-data.js';
import type { Trace } from './schema.js';

type ApplyParts = Pick<Emulator, 'store' | 'clock' | 'ids' | 'apps' | 'scenarios' | 'services'>;

/** Where the running state came from, when a trace: shown in the inspector's overview. */
export type TraceOrigin = z.infer<typeof TraceOriginSchema>;

/** The trace's records as the store holds them (recipients beside their campaigns), of one app when given. */
function storeDataOf(trace: Trace, appId: string | undefined): StoreData {
  const mine = <T extends { appId: string | null }>(list: T[]) =>
    appId === undefined ? list : list.filter((r) => r.appId === appId);
  const campaigns = mine(trace.campaigns);
  return {
    deliveries: mine(trace.deliveries),
    droppedDeliveries: appId === undefined ? trace.droppedDeliveries : 0,
    notifications: mine(trace.notifications),
    campaigns: campaigns.map(({ recipients: _recipients, ...campaign }) => campaign),
    recipients: campaigns.flatMap((c) => c.recipients),
    journal: mine(trace.journal),
    templates: mine(trace.templates),
    channels: mine(trace.channels),
    templateChannels: mine(trace.templateChannels),
    analyticsEvents: mine(trace.analyticsEvents),
  };
}

/** The running records without `appId`'s, followed by the trace's records of that app. */
function mergedWithApp(current: StoreData, imported: StoreData, appId: string): StoreData {
  const others = <T extends { appId: string | null }>(list: T[]) => list.filter((r) => r.appId !== appId);
  const merged = { ...current };
  for (const key of Object.keys(current) as (keyof StoreData)[]) {
    if (key === 'droppedDeliveries') continue;
    (merged[key] as unknown[]) = [...others(current[key] as { appId: string | null }[]), ...imported[key]];
  }
  return merged;
}

/** Replaces the running state with the trace's (one app's when `appId` is given). */
export function applyTrace(parts: ApplyParts, trace: Trace, appId?: string): void {
  const { store, clock, ids, apps, scenarios, services } = parts;
  // Timers first: a scheduled campaign must not start from the state being replaced.
  services.campaigns.cancelScheduled();
  const imported = storeDataOf(trace, appId);
  if (appId === undefined) {
    store.restore(imported);
    apps.reset();
    for (const app of trace.apps) apps.remember(app.appId);
    for (const name of scenarios.names()) scenarios.remove(name);
    for (const { scenario, source } of trace.scenarios.loaded) scenarios.load(scenario, source);
    scenarios.setActive(trace.scenarios.active.global.filter((name) => scenarios.has(name)));
    scenarios.restoreCounts({
      counters: trace.scenarios.counters.rules,
      headerActivated: trace.scenarios.counters.headerActivated,
    });
    const { now, mode } = trace.clocks.shared;
    if (mode === 'manual') clock.set(now);
    else clock.useRealTime();
    ids.resume(trace.ids);
  } else {
    store.restore(mergedWithApp(store.snapshot(), imported, appId));
    apps.remember(appId);
    // The running ids go on; from the same machine prefix, past the trace's too.
    const running = ids.sequence();
    if (running.machine === trace.ids.machine && trace.ids.counter > running.counter) ids.resume(trace.ids);
  }
  // Scheduled campaigns are armed again and half-sent ones go on, as after a restart with a data file.
  services.campaigns.restore(scenarios.deliveryFaults([]));
}
