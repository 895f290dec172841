/**
 * The composition root: builds one emulator instance (clock, random, ids, store,
 * catalogs, event bus, services) from options plus optional injected parts. Two
 * instances share nothing.
 */
import { join, resolve } from 'node:path';
import type { z } from 'zod';
import { ConfigError } from './domain/errors.js';
import type { TraceOriginSchema } from './schemas/responses.js';
import { type Events, type RandomSource } from './domain/ports.js';
import { createNotificationService, type NotificationService } from './domain/notifications.js';
import { createCampaignService, type CampaignService } from './domain/campaigns.js';
import { createTemplateService, type TemplateService } from './domain/templates.js';
import { createChannelService, type ChannelService } from './domain/channels.js';
import { createTemplateChannelService, type TemplateChannelService } from './domain/template-channels.js';
import { createAnalyticsService, type AnalyticsService } from './domain/analytics.js';
import {
  EmulatorOptionsSchema,
  retentionOf,
  withBundledFolders,
  requireNamedFolders,
  FOLDER_LABELS,
  type EmulatorOptions,
  type EmulatorOptionsInput,
  type FolderChoice,
} from './config.js';
import { createAppRegistry, type AppConfig, type AppRegistry } from './catalog/apps.js';
import { createTemplateCatalog, type MutableTemplateCatalog } from './catalog/templates.js';
import { misplacedTemplateFiles } from './catalog/misplaced-templates.js';
import {
  formatZodIssues,
  loadAppsFile,
  loadFixtures,
  parseInlineFixtures,
  watchFixtures,
} from './catalog/load-fixtures.js';
import { createChannelCatalog, type MutableChannelCatalog } from './catalog/channels.js';
import { createMemoryStore, type MemoryStore } from './store/memory-store.js';
import { createEventBus } from './inspect/events.js';
import { EmulatorClock, realNow, type Stopwatch } from './platform/clock.js';
import { AppClocks } from './platform/app-clocks.js';
import { createIds, createRandom, stableId, type SequencedIds } from './platform/random.js';
import { createLogger, type Logger } from './platform/logger.js';
import { readProcessMemory, watchHeap, type MemoryReader } from './platform/memory.js';
import { createScenarioEngine, type ScenarioEngine } from './scenario-engine/engine.js';
import { createScenarioFiles, parseScenario, watchScenarioDir } from './scenario-engine/load-scenarios.js';

/** Parts a test (or startEmulator) may inject instead of the defaults. */
export interface EmulatorOverrides {
  /** A clock to control; `new EmulatorClock('2030-01-01T00:00:00Z')` starts in manual mode. */
  clock?: EmulatorClock;
  random?: RandomSource;
  /** A memory store (createMemoryStore) or one persisted in a file (openLowdbStore). */
  store?: MemoryStore;
  /** Template definitions in the fixture file format; when given (or `channels` is), fixtures/ is not read. */
  templates?: unknown[];
  /** Channel definitions in the fixtures/channels.json format; when given (or `templates` is), fixtures/ is
   * not read. */
  channels?: unknown[];
  /** Scenario definitions (docs/reference.md#scenarios format); when given, the scenarios directory is not read. */
  scenarios?: unknown[];
  logger?: Logger;
  /** Reads the process's memory (/__health, the heap warning); tests inject one. */
  memory?: MemoryReader;
  /** Real elapsed milliseconds for the journal's `durationMs` and /__health's `uptimeMs` (realNow); tests
   * inject one to fix them. Campaign time boxes keep real time. */
  stopwatch?: Stopwatch;
}

export type CreateAppOptions = EmulatorOptionsInput & EmulatorOverrides;

export interface Emulator {
  readonly options: EmulatorOptions;
  /** The shared clock: what every app without a clock of its own follows. */
  readonly clock: EmulatorClock;
  /** Each app's clock (its own, or the shared one): docs/reference.md#clock. */
  readonly clocks: AppClocks;
  readonly random: RandomSource;
  readonly ids: SequencedIds;
  readonly store: MemoryStore;
  readonly templates: MutableTemplateCatalog;
  readonly channels: MutableChannelCatalog;
  readonly apps: AppRegistry;
  readonly events: Events;
  readonly logger: Logger;
  readonly memory: MemoryReader;
  readonly stopwatch: Stopwatch;
  /** The stopwatch's reading at start. */
  readonly startedAt: number;
  readonly services: {
    notifications: NotificationService;
    campaigns: CampaignService;
    templates: TemplateService;
    channels: ChannelService;
    templateChannels: TemplateChannelService;
    analytics: AnalyticsService;
  };
  /** Loaded scenarios, the active set and rule counters (docs/reference.md#scenarios). */
  readonly scenarios: ScenarioEngine;
  /** The trace the running state was imported from (docs/reference.md#traces); null once reset or never. */
  readonly traceOrigin: { current: z.infer<typeof TraceOriginSchema> | null };
  /**
   * Back to the state at start (POST /__reset). Everything: records, runtime templates and
   * channels, open-mode apps, scenarios (runtime-loaded ones removed, file/option ones as
   * loaded, counters and active set as at start), the clock's start mode; scheduled campaigns
   * never start. With `appId`: that app's records, runtime templates, channels, scheduled
   * campaigns, (open mode) the app itself, its own clock and active set (back to the shared
   * ones) and its scenario counters; what other apps have stays.
   */
  reset(appId?: string): void;
  close(): Promise<void>;
}

type Cleanup = () => void | Promise<void>;

interface Platform {
  options: EmulatorOptions;
  logger: Logger;
  memory: MemoryReader;
  stopwatch: Stopwatch;
  clock: EmulatorClock;
  clocks: AppClocks;
  /** Told when an app's own clock or active set changes. */
  onAppChange: (appId: string) => void;
  random: RandomSource;
  ids: SequencedIds;
  store: MemoryStore;
  events: Events;
  /** Where the fixtures and scenarios folders come from: named, the defaults, or the bundled examples. */
  folders: FolderChoice;
}

/** Step 1: the options (validated) and the platform parts: logger, clock, random, ids, store, events. */
/**
 * `onAppChange(appId)` is told when an app's own clock or active set changes (createEmulator
 * keeps both on the store, so a data file has them after a restart).
 */
function createPlatform(
  input: CreateAppOptions,
  onAppChange: (appId: string) => void,
): { platform: Platform; overrides: EmulatorOverrides } {
  const { clock, random, store, templates, channels, scenarios, logger, memory, stopwatch, ...rest } = input;
  const parsed = EmulatorOptionsSchema.safeParse(rest);
  if (!parsed.success) throw new ConfigError(formatZodIssues('options', parsed.error));
  // As the CLI does: a folder named must exist; the bundled examples for one left to its default that holds none.
  requireNamedFolders(
    parsed.data,
    { fixtures: rest.fixturesDir !== undefined, scenarios: rest.scenariosDir !== undefined },
    FOLDER_LABELS.library,
  );
  const { options, source: folders } = withBundledFolders(parsed.data, {
    fixtures: rest.fixturesDir !== undefined || templates !== undefined || channels !== undefined,
    scenarios: rest.scenariosDir !== undefined || scenarios !== undefined,
  });
  const emulatorClock = clock ?? new EmulatorClock();
  const randomSource = random ?? createRandom(options.seed);
  const platform: Platform = {
    options,
    logger: logger ?? createLogger(options.logLevel),
    memory: memory ?? readProcessMemory,
    stopwatch: stopwatch ?? realNow,
    clock: emulatorClock,
    clocks: new AppClocks(emulatorClock, onAppChange),
    onAppChange,
    random: randomSource,
    ids: createIds(emulatorClock, randomSource),
    store: store ?? createMemoryStore(retentionOf(options)),
    events: createEventBus(),
    folders,
  };
  for (const what of ['fixtures', 'scenarios'] as const) {
    if (folders[what] !== 'bundled') continue;
    platform.logger.info(
      `${what}: the bundled examples (${what === 'fixtures' ? options.fixturesDir : options.scenariosDir}): ` +
        `./${what} holds none and no ${what}Dir was given`,
    );
  }
  return { platform, overrides: { templates, channels, scenarios } };
}

/**
 * Step 2: templates, channels and apps (inline, or from the fixtures folder) and the scenario
 * engine with its scenarios. Every bad file is reported at once, not just the first.
 */
function loadSources(platform: Platform, overrides: EmulatorOverrides) {
  const { options, store, clock, logger, random } = platform;
  const { templates: rawTemplates, channels: rawChannels, scenarios: rawScenarios } = overrides;
  const fixturesDir = resolve(options.fixturesDir);
  const inline = rawTemplates !== undefined || rawChannels !== undefined;
  const readFixtures = () =>
    inline
      ? parseInlineFixtures(rawTemplates ?? [], rawChannels ?? [], clock.nowIso())
      : loadFixtures(fixturesDir, clock.nowIso());
  const problems: string[] = [];
  const collect = <T>(load: () => T, fallback: T): T => {
    try {
      return load();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems);
      return fallback;
    }
  };
  const fixtures = collect(readFixtures, { templates: [], channels: [] });
  const templates = createTemplateCatalog(
    store,
    fixtures.templates,
    inline ? 'the templates option' : join(fixturesDir, 'templates'),
  );
  const channels = createChannelCatalog(store, fixtures.channels);
  // EMULATOR_APPS / options.apps win over the fixtures' apps.json; inline fixtures mean no fixtures folder.
  const appsFromFile = !options.apps.length && !inline;
  const configuredApps: AppConfig[] = appsFromFile ? collect(() => loadAppsFile(fixturesDir), []) : options.apps;
  const apps = createAppRegistry(configuredApps, options.maxApps);
  // Open mode remembers apps on first use; those a data file holds records of used it before the restart.
  for (const appId of store.appsInInitialData()) apps.remember(appId);

  // With --seed, an app's draws come from a source seeded from the seed and its id alone.
  const randomFor = (appId: string) =>
    createRandom(
      options.seed === undefined ? undefined : (options.seed ^ parseInt(stableId(appId).slice(0, 8), 16)) >>> 0,
    );
  const scenarios = createScenarioEngine({ random, randomFor, onAppChange: platform.onAppChange });
  const scenariosDir = resolve(options.scenariosDir);
  const scenarioFiles = rawScenarios ? undefined : createScenarioFiles(scenariosDir, scenarios, logger);
  if (rawScenarios) {
    rawScenarios.forEach((raw, i) => {
      const result = parseScenario(raw, `options.scenarios[${i}]`);
      if ('problems' in result) problems.push(...result.problems);
      else if (scenarios.has(result.scenario.name))
        problems.push(`options.scenarios[${i}]: field "name": scenario "${result.scenario.name}" is defined twice`);
      else scenarios.load(result.scenario, 'options.scenarios');
    });
  } else {
    collect(() => scenarioFiles!.loadAtStart(), undefined);
    if (platform.folders.scenarios === 'named' && scenarios.names().length === 0 && !problems.length)
      logger.warn(`no scenarios found in ${scenariosDir}: it holds no scenario *.json files`);
  }
  if (problems.length) throw new ConfigError(problems);
  if (!inline && templates.count() === 0) {
    // A mistyped folder (or createApp run outside the repository) is otherwise only visible as 404s on every send.
    const misplaced = misplacedTemplateFiles(fixturesDir);
    const shown = misplaced.slice(0, 3).join(', ') + (misplaced.length > 3 ? ', …' : '');
    logger.warn(
      `no templates found in ${join(fixturesDir, 'templates')}: every send will answer 404 until one is added` +
        (misplaced.length
          ? `; ${fixturesDir} holds ${misplaced.length} JSON file(s) at its top (${shown}): ` +
            `templates go one level down, so move them into ${join(fixturesDir, 'templates')}`
          : ''),
    );
  }
  // The scenarios a reset goes back to: the inline ones as loaded, or what the folder holds then.
  const inlineScenarios = scenarios
    .names()
    .map((name) => ({ scenario: scenarios.get(name)!, source: 'options.scenarios' }));
  const baseScenarios = scenarioFiles ? scenarioFiles.current : () => inlineScenarios;
  scenarios.requireLoaded(
    options.activeScenarios,
    (unknown, loaded) =>
      new ConfigError(
        unknown.map(
          (n) =>
            `--scenario / EMULATOR_SCENARIOS: no scenario named "${n}" is loaded ` +
            `(loaded: ${loaded.join(', ') || 'none'})`,
        ),
      ),
  );
  return {
    templates,
    channels,
    apps,
    scenarios,
    baseScenarios,
    watch: { fixturesDir, inline, readFixtures, appsFromFile, configuredApps, scenariosDir, scenarioFiles },
  };
}

type Sources = ReturnType<typeof loadSources>;

/** Step 3: reload fixtures, apps.json and scenario files when they change (unless --no-watch). */
function watchSources(platform: Platform, sources: Sources): Cleanup[] {
  const { options, logger } = platform;
  const { templates, channels, apps } = sources;
  const { fixturesDir, inline, readFixtures, appsFromFile, configuredApps, scenariosDir, scenarioFiles } =
    sources.watch;
  const cleanups: Cleanup[] = [];
  // A folder that cannot be watched is named once, however often a re-watch of it fails.
  const warned = new Set<string>();
  const watching = {
    warn: (message: string) => {
      if (!warned.has(message)) logger.warn(message);
      warned.add(message);
    },
  };
  const reloadFixtures = () => {
    try {
      const next = readFixtures();
      templates.replaceFixtures(next.templates);
      channels.replaceFixtures(next.channels);
      logger.info(
        `reloaded ${next.templates.length} template(s) and ${next.channels.length} channel(s) from ${fixturesDir}`,
      );
    } catch (error) {
      logger.error(`fixture reload refused, keeping the previous templates:\n${(error as Error).message}`);
    }
  };
  let lastApps = JSON.stringify(configuredApps);
  const reloadApps = () => {
    let next: AppConfig[];
    try {
      next = loadAppsFile(fixturesDir);
    } catch (error) {
      logger.error(`apps.json reload refused, keeping the previous apps:\n${(error as Error).message}`);
      return;
    }
    if (JSON.stringify(next) === lastApps) return;
    lastApps = JSON.stringify(next);
    apps.replace(next);
    logger.info(
      next.length
        ? `reloaded ${join(fixturesDir, 'apps.json')}: ${next.length} app(s) ` +
            `(${next.map((a) => a.appId).join(', ')}), auth strict`
        : `${join(fixturesDir, 'apps.json')} is gone or empty: auth open`,
    );
  };
  if (options.watch && !inline)
    cleanups.push(watchFixtures(fixturesDir, reloadFixtures, appsFromFile ? reloadApps : undefined, watching));
  if (options.watch && scenarioFiles)
    cleanups.push(watchScenarioDir(scenariosDir, () => scenarioFiles.reload(), watching));
  return cleanups;
}

/** Step 4: the domain services over the shared parts. */
function createServices(platform: Platform, sources: Sources, cleanups: Cleanup[]): Emulator['services'] {
  const { store, clocks, ids, events } = platform;
  const { templates, channels } = sources;
  // Campaign delivery yields between time-boxed chunks (docs/reference.md#send-a-campaign), each
  // chunk a turn of the store's: with its sealing and index slices, one queue and one budget
  // a turn of the event loop, not each its own (docs/performance.md#where-the-speed-comes-from).
  const campaigns = createCampaignService({
    store,
    templates,
    channels,
    clocks,
    ids,
    events,
    runtime: { defer: store.turns.later, elapsed: realNow },
  });
  cleanups.push(() => campaigns.close());
  return {
    notifications: createNotificationService({ store, templates, channels, clocks, ids, events }),
    campaigns,
    templates: createTemplateService({ store, templates, channels, clocks, ids }),
    channels: createChannelService({ store, channels, clocks, ids }),
    templateChannels: createTemplateChannelService({ store, templates, channels, clocks }),
    analytics: createAnalyticsService({ store, templates, channels, clocks, ids }),
  };
}

/** The apps' own clocks and active sets a data file kept (scenarios no longer loaded are left out). */
function restoreAppStates({ store, clocks }: Platform, scenarios: ScenarioEngine): void {
  const states = store.appStates();
  clocks.restore(Object.fromEntries(states.flatMap((s) => (s.clock ? [[s.appId, s.clock]] : []))));
  scenarios.restore({
    apps: Object.fromEntries(states.flatMap((s) => (s.activeScenarios ? [[s.appId, s.activeScenarios]] : []))),
  });
}

export function createEmulator(input: CreateAppOptions = {}): Emulator {
  // An app's own clock and active set, as the store keeps them (set once the engine exists).
  let saveApp = (_appId: string) => {};
  const { platform, overrides } = createPlatform(input, (appId) => saveApp(appId));
  const sources = loadSources(platform, overrides);
  const cleanups = watchSources(platform, sources);
  sources.scenarios.setActive(platform.options.activeScenarios);
  saveApp = (appId) =>
    platform.store.saveAppState({
      appId,
      clock: platform.clocks.stateOf(appId),
      activeScenarios: sources.scenarios.ownActive(appId),
    });
  restoreAppStates(platform, sources.scenarios);
  const services = createServices(platform, sources, cleanups);
  const heapWatch = watchHeap(platform.memory, platform.logger);
  cleanups.push(heapWatch.stop);
  // A reloaded data file may hold scheduled or half-sent campaigns: re-arm and resume them.
  services.campaigns.restore(sources.scenarios.deliveryFaults([]));

  const { clock, clocks, store, options } = platform;
  const { apps, scenarios, baseScenarios } = sources;
  const traceOrigin: Emulator['traceOrigin'] = { current: null };
  return {
    ...platform,
    templates: sources.templates,
    channels: sources.channels,
    apps: sources.apps,
    scenarios: sources.scenarios,
    services,
    traceOrigin,
    reset(appId) {
      // Timers first: a scheduled campaign must not start between the clear and the clock reset.
      services.campaigns.cancelScheduled(appId);
      if (appId !== undefined) {
        clocks.release(appId);
        scenarios.useGlobal(appId);
        scenarios.reset(appId);
      }
      store.reset(appId);
      apps.reset(appId);
      if (appId !== undefined) return;
      clocks.release();
      scenarios.useGlobalEverywhere();
      for (const name of scenarios.names()) scenarios.remove(name);
      for (const { scenario, source } of baseScenarios()) scenarios.load(scenario, source);
      scenarios.reset();
      scenarios.setActive(options.activeScenarios.filter((name) => scenarios.has(name)));
      clock.reset();
      traceOrigin.current = null;
    },
    startedAt: platform.stopwatch(),
    async close() {
      for (const fn of cleanups.splice(0)) await fn();
      clocks.close();
      clock.close();
      await store.close();
    },
  };
}
