/**
 * Reads scenarios/*.json (one scenario per file), validates them in one pass, and keeps
 * the engine in step with the directory: at start every problem is a ConfigError naming
 * file, rule and field; on reload a bad file is logged and its last good version stays.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Logger } from '../platform/logger.js';
import { ConfigError, ERROR_CODES } from '../domain/errors.js';
import { depthExceeds, TOO_DEEP_TO_LOAD } from '../domain/json-depth.js';
import { createScenarioSchema, describeScenarioIssues, type Scenario } from '../schemas/scenario-file.js';
import type { ScenarioEngine } from './engine.js';
import { FAULT_KINDS } from './fault-kinds.js';
import { watchDirectory, type WatchOptions } from '../platform/watch-dir.js';

/**
 * Scenario files may name any error code of the contract's table (docs/reference.md#errors),
 * and any fault kind of the engine's table.
 */
export const ScenarioSchema = createScenarioSchema(ERROR_CODES, FAULT_KINDS);

export interface ScenarioDirRead {
  /** File path → its valid scenario. */
  good: Map<string, Scenario>;
  /** File path → what is wrong with it. */
  bad: Map<string, string[]>;
}

/** Validates a scenario given as data; `where` prefixes each problem (a file name or "options.scenarios[0]"). */
export function parseScenario(
  raw: unknown,
  where: string,
): { scenario: Scenario } | { problems: string[]; details: Record<string, string> } {
  // A rule's body is matched, explained and sent as JSON: the nesting limit of request bodies holds here too.
  if (depthExceeds(raw))
    return { problems: [`${where}: ${TOO_DEEP_TO_LOAD}`], details: { '(body)': TOO_DEEP_TO_LOAD } };
  const parsed = ScenarioSchema.safeParse(raw);
  if (parsed.success) return { scenario: parsed.data };
  const { problems, details } = describeScenarioIssues(parsed.error);
  return { problems: problems.map((p) => `${where}: ${p}`), details };
}

export function readScenarioDir(dir: string): ScenarioDirRead {
  const good = new Map<string, Scenario>();
  const bad = new Map<string, string[]>();
  if (!existsSync(dir)) return { good, bad };
  const owner = new Map<string, string>();
  for (const name of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const file = join(dir, name);
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      bad.set(file, [`${file}: not valid JSON: ${(error as Error).message}`]);
      continue;
    }
    const result = parseScenario(json, file);
    if ('problems' in result) {
      bad.set(file, result.problems);
      continue;
    }
    const other = owner.get(result.scenario.name);
    if (other) {
      bad.set(file, [
        `${file}: field "name": scenario "${result.scenario.name}" is already defined in ${other}; names must be ` +
          `unique`,
      ]);
      continue;
    }
    owner.set(result.scenario.name, file);
    good.set(file, result.scenario);
  }
  return { good, bad };
}

/** Keeps the engine's file-sourced scenarios equal to the directory's good files. */
export function createScenarioFiles(dir: string, engine: ScenarioEngine, logger: Logger) {
  let lastGood = new Map<string, Scenario>();

  const apply = (next: Map<string, Scenario>) => {
    const names = new Set([...next.values()].map((s) => s.name));
    for (const name of engine.names()) {
      const source = engine.sourceOf(name)!;
      if (dirname(source) === dir && !names.has(name)) {
        if (engine.active().includes(name))
          logger.warn(`scenario "${name}" was active and its file is gone; it is no longer active`);
        engine.remove(name);
      }
    }
    for (const [file, scenario] of next) engine.load(scenario, file);
    lastGood = next;
  };

  return {
    /** The file scenarios as they are now (for POST /__reset: back to what the folder holds). */
    current: (): { scenario: Scenario; source: string }[] =>
      [...lastGood].map(([file, scenario]) => ({ scenario, source: file })),
    /** At start: every problem of every file, or the scenarios loaded. */
    loadAtStart(): void {
      const { good, bad } = readScenarioDir(dir);
      if (bad.size) throw new ConfigError([...bad.values()].flat());
      apply(good);
      engine.setLoadErrors([]);
    },
    /** On change: good files replace their scenario; a bad file keeps its last good version. */
    reload(): void {
      const { good, bad } = readScenarioDir(dir);
      for (const [file, problems] of bad) {
        const kept = lastGood.get(file);
        logger.error(
          `scenario reload refused for ` +
            `${file}${kept ? `, keeping the previous "${kept.name}"` : ''}:\n${problems.join('\n')}`,
        );
        if (kept && ![...good.values()].some((s) => s.name === kept.name)) good.set(file, kept);
      }
      apply(good);
      engine.setLoadErrors([...bad].map(([file, problems]) => ({ file, problems })));
      logger.info(`reloaded ${good.size} scenario(s) from ${dir}`);
    },
  };
}

/** Calls `reload` (debounced) whenever a file under `dir` changes; returns the stop function. */
export function watchScenarioDir(dir: string, reload: () => void, options: WatchOptions = {}): () => void {
  return watchDirectory(dir, reload, options);
}
