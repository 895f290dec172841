/**
 * The composition root: builds one emulator instance (clock, random, ids, store,
 * catalogs, event bus, services) from options plus optional injected parts. Two
 * instances share nothing.
 */
import { resolve } from 'node:path';
import { ConfigError } from './domain/errors.js';
import { type Events, type Ids, type RandomSource, type Store } from './domain/ports.js';
import { createNotificationService, type NotificationService } from './domain/notifications.js';
import { createCampaignService, type CampaignService } from './domain/campaigns.js';
import { createTemplateService, type TemplateService } from './domain/templates.js';
import { createChannelService, type ChannelService } from './domain/channels.js';
import { createAnalyticsService, type AnalyticsService } from './domain/analytics.js';
import { EmulatorOptionsSchema, type EmulatorOptions, type EmulatorOptionsInput } from './config.js';
import { createAppRegistry, type AppConfig, type AppRegistry } from './catalog/apps.js';
import { createTemplateCatalog, type MutableTemplateCatalog } from './catalog/templates.js';
import { loadAppsFile, loadTemplates, toTemplate, watchTemplates } from './catalog/load-fixtures.js';
import { issueProblems } from './schemas/issues.js';
import { parseTemplateFile } from './schemas/template-file.js';
import type { Template } from './schemas/records.js';
import { createMemoryStore } from './store/memory-store.js';
import { createEventBus } from './inspect/events.js';
import { EmulatorClock, realNow } from './platform/clock.js';
import { createIds, createRandom } from './platform/random.js';
import { createLogger, type Logger } from './platform/logger.js';
import { createScenarioEngine, type ScenarioEngine } from './scenario-engine/engine.js';
import { createScenarioFiles, parseScenario, watchScenarioDir } from './scenario-engine/load-scenarios.js';

/** Parts a test (or startEmulator) may inject instead of the defaults. */
export interface EmulatorOverrides {
  /** A clock to control; `new EmulatorClock('2030-01-01T00:00:00Z')` starts in manual mode. */
  clock?: EmulatorClock;
  random?: RandomSource;
  store?: Store;
  /** Template definitions in the fixture file format; when given, fixtures/templates is not read. */
  templates?: unknown[];
  /** Scenario definitions (docs/reference.md#scenarios format); when given, the scenarios directory is not read. */
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
  readonly apps: AppRegistry;
  readonly events: Events;
  readonly logger: Logger;
  readonly startedAt: number;
  readonly services: {
    notifications: NotificationService;
    campaigns: CampaignService;
    templates: TemplateService;
    channels: ChannelService;
    analytics: AnalyticsService;
  };
  /** Loaded scenarios, the active set and rule counters (docs/reference.md#scenarios). */
  readonly scenarios: ScenarioEngine;
  /** Registers cleanup to run on close (timers, watchers). */
  onClose(fn: () => void | Promise<void>): void;
  close(): Promise<void>;
}

function inlineTemplates(raw: unknown[], nowIso: string): Template[] {
  const parsed = parseTemplateFile(raw);
  if (!parsed.success) throw new ConfigError(issueProblems(parsed.error, 'options.templates'));
  return (Array.isArray(parsed.data) ? parsed.data : [parsed.data]).map((t) => toTemplate(t, nowIso));
}

type Cleanup = () => void | Promise<void>;

/** Step 1: the options (validated) apart from the injected parts. */
function parseOptions(input: CreateAppOptions): { options: EmulatorOptions; overrides: EmulatorOverrides } {
  const { clock, random, store, templates, scenarios, logger, ...rest } = input;
  const parsed = EmulatorOptionsSchema.safeParse(rest);
  if (!parsed.success) throw new ConfigError(issueProblems(parsed.error, 'options'));
  return { options: parsed.data, overrides: { clock, random, store, templates, scenarios, logger } };
}

/** Step 2: templates (inline or from fixtures/templates, watched when asked) and apps. */
function loadCatalogs(
  options: EmulatorOptions,
  overrides: EmulatorOverrides,
  parts: { store: Store; clock: EmulatorClock; logger: Logger; cleanups: Cleanup[] },
): { templates: MutableTemplateCatalog; apps: AppRegistry } {
  const { store, clock, logger, cleanups } = parts;
  const rawTemplates = overrides.templates;
  const fixturesDir = resolve(options.fixturesDir);
  const readTemplates = () =>
    rawTemplates ? inlineTemplates(rawTemplates, clock.nowIso()) : loadTemplates(fixturesDir, clock.nowIso());
  const templates = createTemplateCatalog(store, readTemplates());
  const configuredApps: AppConfig[] = options.apps.length
    ? options.apps
    : rawTemplates
      ? []
      : loadAppsFile(fixturesDir);
  if (options.watch && !rawTemplates) {
    cleanups.push(
      watchTemplates(fixturesDir, () => {
        try {
          const next = readTemplates();
          templates.replaceFixtures(next);
          logger.info(`reloaded ${next.length} template(s) from ${fixturesDir}`);
        } catch (error) {
          logger.error(`fixture reload refused, keeping the previous templates:\n${(error as Error).message}`);
        }
      }),
    );
  }
  return { templates, apps: createAppRegistry(configuredApps) };
}

/** Step 3: the scenario engine with its scenarios (inline or from the directory, watched) and the active set. */
function loadScenarioEngine(
  options: EmulatorOptions,
  rawScenarios: unknown[] | undefined,
  parts: { random: RandomSource; logger: Logger; cleanups: Cleanup[] },
): ScenarioEngine {
  const scenarios = createScenarioEngine({ random: parts.random });
  if (rawScenarios) {
    const problems: string[] = [];
    rawScenarios.forEach((raw, i) => {
      const result = parseScenario(raw, `options.scenarios[${i}]`);
      if ('problems' in result) problems.push(...result.problems);
      else if (scenarios.has(result.scenario.name))
        problems.push(`options.scenarios[${i}]: field "name": scenario "${result.scenario.name}" is defined twice`);
      else scenarios.load(result.scenario, 'options.scenarios');
    });
    if (problems.length) throw new ConfigError(problems);
  } else {
    const scenariosDir = resolve(options.scenariosDir);
    const files = createScenarioFiles(scenariosDir, scenarios, parts.logger);
    files.loadAtStart();
    if (options.watch) parts.cleanups.push(watchScenarioDir(scenariosDir, () => files.reload()));
  }
  scenarios.requireLoaded(
    options.activeScenarios,
    (unknown, loaded) =>
      new ConfigError(
        unknown.map(
          (n) =>
            `--scenario / EMULATOR_SCENARIOS: no scenario named "${n}" is loaded (loaded: ` +
            `${loaded.join(', ') || 'none'})`,
        ),
      ),
  );
  scenarios.setActive(options.activeScenarios);
  return scenarios;
}

/** Step 4: the domain services over the shared parts. */
function createServices(parts: {
  store: Store;
  templates: MutableTemplateCatalog;
  clock: EmulatorClock;
  ids: Ids;
  events: Events;
  cleanups: Cleanup[];
}): Emulator['services'] {
  const { store, templates, clock, ids, events } = parts;
  // Campaign delivery yields with setImmediate between time-boxed chunks (docs/reference.md#send-a-campaign).
  const campaigns = createCampaignService({
    store,
    templates,
    clock,
    ids,
    events,
    runtime: { defer: (fn) => setImmediate(fn), elapsed: realNow },
  });
  parts.cleanups.push(() => campaigns.close());
  return {
    notifications: createNotificationService({ store, templates, clock, ids, events }),
    campaigns,
    templates: createTemplateService({ store, templates, clock, ids }),
    channels: createChannelService({ store, clock, ids }),
    analytics: createAnalyticsService({ store, templates, clock, ids }),
  };
}

export function createEmulator(input: CreateAppOptions = {}): Emulator {
  const { options, overrides } = parseOptions(input);
  const logger = overrides.logger ?? createLogger(options.logLevel);
  const clock = overrides.clock ?? new EmulatorClock();
  const random = overrides.random ?? createRandom(options.seed);
  const ids = createIds(clock, random);
  const store = overrides.store ?? createMemoryStore({ maxDeliveries: options.maxDeliveries });
  const events = createEventBus();
  const cleanups: Cleanup[] = [];

  const { templates, apps } = loadCatalogs(options, overrides, { store, clock, logger, cleanups });
  const scenarios = loadScenarioEngine(options, overrides.scenarios, { random, logger, cleanups });
  const services = createServices({ store, templates, clock, ids, events, cleanups });
  // A reloaded data file may hold scheduled or half-sent campaigns: re-arm and resume them.
  services.campaigns.restore(scenarios.deliveryFaults([]));

  return {
    options,
    clock,
    random,
    ids,
    store,
    templates,
    apps,
    events,
    logger,
    services,
    scenarios,
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
