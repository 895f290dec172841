/**
 * Takes the emulator apart for the route tables: each table gets the services and read
 * facades it uses, never the emulator or its store. The one place that knows which part of
 * the composition root answers what, and the only one that builds the read facades.
 */
import type { Emulator } from '../emulator.js';
import { createReads, type Reads } from '../reads/reads.js';
import type { Store } from '../domain/ports.js';
import { applyTrace } from '../trace/apply.js';
import { captureTrace } from '../trace/capture.js';
import type { Trace } from '../trace/schema.js';
import type { Upstream } from '../upstream/proxy.js';

const CONTROL_KEYS = [
  'options',
  'apps',
  'clock',
  'clocks',
  'templates',
  'scenarios',
  'reset',
  'startedAt',
  'stopwatch',
  'memory',
  'traceOrigin',
] as const satisfies readonly (keyof Emulator)[];
const API_KEYS = ['options', 'apps', 'scenarios', 'clocks', 'services'] as const satisfies readonly (keyof Emulator)[];

/** What the control plane's tables use. */
export interface ControlParts extends Pick<Emulator, (typeof CONTROL_KEYS)[number]> {
  reads: Reads;
  /** Proxy mode's counters, shown by /__health (null when not proxying). */
  upstream: Pick<Upstream, 'stats'> | null;
  /** What applies to every kind of record. */
  records: Pick<Store, 'clear' | 'stats'>;
  traces: {
    capture(appId?: string): ReturnType<typeof captureTrace>;
    apply(trace: Trace, appId: string | undefined, fileName: string | null): ReturnType<typeof applyTrace>;
  };
}

/** What the API's tables use. */
export interface ApiParts extends Pick<Emulator, (typeof API_KEYS)[number]> {
  reads: Reads;
  /** Proxy mode (--upstream): where every API call is forwarded; null when the emulator answers. */
  upstream: Upstream | null;
}

const pick = <K extends keyof Emulator>(emulator: Emulator, keys: readonly K[]): Pick<Emulator, K> =>
  Object.fromEntries(keys.map((key) => [key, emulator[key]])) as Pick<Emulator, K>;

export function wire(emulator: Emulator, upstream: Upstream | null): { api: ApiParts; control: ControlParts } {
  const { store, templates, services } = emulator;
  const reads = createReads({
    ...pick(emulator, ['events', 'clocks', 'apps', 'templates', 'channels']),
    store,
    turns: store.turns,
    // Kept answers last while neither the records nor the template catalog (campaign views name their template) change.
    revision: () => `${store.revision()}:${templates.generation}`,
    campaigns: services.campaigns,
    analytics: services.analytics,
  });
  return {
    api: { ...pick(emulator, API_KEYS), reads, upstream },
    control: {
      ...pick(emulator, CONTROL_KEYS),
      reads,
      upstream,
      records: { clear: (appId) => store.clear(appId), stats: () => store.stats() },
      traces: {
        capture: (appId) => captureTrace(emulator, appId),
        apply: (trace, appId, fileName) => applyTrace(emulator, trace, appId, fileName),
      },
    },
  };
}
