/**
 * The composition root: builds one emulator instance (clock, random, ids, store,
 * catalogs, event bus, services) from options plus optional injected parts. Two
 * instances share nothing.
 */
import { join, resolve } from 'node:path';
import { ConfigError } from './domain/errors.js';
import { type DeliveryFaultPolicy, type Events, type Ids, type RandomSource, type Store } from './domain/ports.js';
import { createNotificationService, type NotificationService } from './domain/notifications.js';
import { createCampaignService, type CampaignService } from './domain/campaigns.js';
import { createTemplateService, type TemplateService } from './domain/templates.js';
import { createChannelService, type ChannelService } from './domain/channels.js';
import { createTemplateChannelService, type TemplateChannelService } from './domain/template-channels.js';
import { createAnalyticsService, type AnalyticsService } from './domain/analytics.js';
import { EmulatorOptionsSchema, type EmulatorOptions, type EmulatorOptionsInput } from './config.js';
import { createAppRegistry, type AppConfig, type AppRegistry } from './catalog/apps.js';
import { createTemplateCatalog, type MutableTemplateCatalog } from './catalog/templates.js';
import {
  formatZodIssues,
  loadAppsFile,
  loadFixtures,
  parseInlineFixtures,
  watchAppsFile,
  watchTemplates,
} from './catalog/load-fixtures.js';
import { createChannelCatalog, type MutableChannelCatalog } from './catalog/channels.js';
import { createMemoryStore } from './store/memory-store.js';
import { createEventBus } from './inspect/events.js';
import { EmulatorClock, realNow } from './platform/clock.js';
import { createIds, createRandom } from './platform/random.js';
import { createLogger, type Logger } from './platform/logger.js';
import { createScenarioEngine, type ScenarioEngine } from './scenario-engine/engine.js';
import { createScenarioFiles, parseScenario, watchScenarioDir } from './scenario-engine/load-scenarios.js';
import type { RequestFacts } from './scenario-engine/match.js';

/** Parts a test (or startEmulator) may inject instead of the defaults. */
export interface EmulatorOverrides {
  /** A clock to control; `new EmulatorClock('2030-01-01T00:00:00Z')` starts in manual mode. */
  clock?: EmulatorClock;
  random?: RandomSource;
  store?: Store;
  /** Template definitions in the fixture file format; when given (or `channels` is), fixtures/ is not read. */
  templates?: unknown[];
  /** Channel definitions in the fixtures/channels.json format; when given (or `templates` is), fixtures/ is not read. */
  channels?: unknown[];
  /** Scenario definitions (CONTRACT §7 format); when given, the scenarios directory is not read. */
  scenarios?: unknown[];
  logger?: Logger;
}

export type CreateAppOptions = EmulatorOptionsInput & EmulatorOverrides;

export interface Emulator {
  readonly options: EmulatorOptions;
  readonly clock: EmulatorClock;
  readonly random: RandomSource;
  readonly ids: Ids;
  readonly store: Store;
  readonly templates: MutableTemplateCatalog;
  readonly channels: MutableChannelCatalog;
  readonly apps: AppRegistry;
  readonly events: Events;
  readonly logger: Logger;
  readonly startedAt: number;
  readonly services: {
    notifications: NotificationService;
    campaigns: CampaignService;
    templates: TemplateService;
    channels: ChannelService;
    templateChannels: TemplateChannelService;
    analytics: AnalyticsService;
  };
  /**
   * The delivery-fault policy for work started by a request that named `requestScenarios`
   * (x-emulator-scenario header) on top of the globally active scenarios. The policy reads
   * the active set when called, so work that runs later (scheduled campaigns) sees changes.
   */
  deliveryFaults(requestScenarios: string[], request?: RequestFacts): DeliveryFaultPolicy;
  /** Loaded scenarios, the active set and rule counters (CONTRACT §7). */
  readonly scenarios: ScenarioEngine;
  /** Registers cleanup to run on close (timers, watchers). */
  onClose(fn: () => void | Promise<void>): void;
  close(): Promise<void>;
}

export function createEmulator(input: CreateAppOptions = {}): Emulator {
  const {
    clock: injectedClock,
    random: injectedRandom,
    store: injectedStore,
    templates: rawTemplates,
    channels: rawChannels,
    scenarios: rawScenarios,
    logger: injectedLogger,
    ...rest
  } = input;
  const parsed = EmulatorOptionsSchema.safeParse(rest);
  if (!parsed.success) throw new ConfigError(formatZodIssues('options', parsed.error));
  const options = parsed.data;
  const fixturesDir = resolve(options.fixturesDir);

  const logger = injectedLogger ?? createLogger(options.logLevel);
  const clock = injectedClock ?? new EmulatorClock();
  const random = injectedRandom ?? createRandom(options.seed);
  const ids = createIds(clock, random);
  const store = injectedStore ?? createMemoryStore({ maxDeliveries: options.maxDeliveries });
  const events = createEventBus();

  const inline = rawTemplates !== undefined || rawChannels !== undefined;
  const readFixtures = () =>
    inline
      ? parseInlineFixtures(rawTemplates ?? [], rawChannels ?? [], clock.nowIso())
      : loadFixtures(fixturesDir, clock.nowIso());
  // Every bad file (templates, channels, apps.json, scenarios) is reported at once, not just the first.
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
  const apps = createAppRegistry(configuredApps);

  const scenarios = createScenarioEngine({ random });
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
  }
  if (problems.length) throw new ConfigError(problems);
  if (!inline && templates.count() === 0) {
    // A mistyped folder (or createApp run outside the repository) is otherwise only visible as 404s on every send.
    logger.warn(
      `no templates found in ${join(fixturesDir, 'templates')}: every send will answer 404 until one is added`,
    );
  }
  const unknownScenarios = scenarios.unknown(options.activeScenarios);
  if (unknownScenarios.length) {
    throw new ConfigError(
      unknownScenarios.map(
        (n) =>
          `--scenario / EMULATOR_SCENARIOS: no scenario named "${n}" is loaded (loaded: ${scenarios.names().join(', ') || 'none'})`,
      ),
    );
  }

  const cleanups: (() => void | Promise<void>)[] = [];
  if (options.watch && !inline) {
    cleanups.push(
      watchTemplates(fixturesDir, () => {
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
      }),
    );
  }
  if (options.watch && appsFromFile) {
    let lastApps = JSON.stringify(configuredApps);
    cleanups.push(
      watchAppsFile(fixturesDir, () => {
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
      }),
    );
  }
  if (options.watch && scenarioFiles) cleanups.push(watchScenarioDir(scenariosDir, () => scenarioFiles.reload()));
  scenarios.setActive(options.activeScenarios);

  // Campaign delivery yields with setImmediate between time-boxed chunks (CONTRACT §5.4).
  const campaigns = createCampaignService({
    store,
    templates,
    channels,
    clock,
    ids,
    events,
    runtime: { defer: (fn) => setImmediate(fn), elapsed: realNow },
  });
  cleanups.push(() => campaigns.close());
  const services = {
    notifications: createNotificationService({ store, templates, channels, clock, ids, events }),
    campaigns,
    templates: createTemplateService({ store, templates, channels, clock, ids }),
    channels: createChannelService({ store, channels, clock, ids }),
    templateChannels: createTemplateChannelService({ store, templates, channels, clock }),
    analytics: createAnalyticsService({ store, templates, channels, clock, ids }),
  };
  // A reloaded data file may hold scheduled or half-sent campaigns: re-arm and resume them.
  campaigns.restore(scenarios.deliveryFaults([]));

  return {
    options,
    clock,
    random,
    ids,
    store,
    templates,
    channels,
    apps,
    events,
    logger,
    services,
    scenarios,
    deliveryFaults: (requestScenarios, request) => scenarios.deliveryFaults(requestScenarios, request),
    startedAt: realNow(),
    onClose(fn) {
      cleanups.push(fn);
    },
    async close() {
      for (const fn of cleanups.splice(0)) await fn();
      clock.close();
      await store.close();
    },
  };
}
