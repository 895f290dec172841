/**
 * /__scenarios: list loaded scenarios with each rule explained and its remaining count,
 * load or replace one, reset counters, delete one, and set the active set (docs/reference.md#scenarios).
 * With `?appId=`: the app's effective set and counters, its own active set (which alone then
 * applies to it) and its counters' reset.
 */
import { Hono } from 'hono';
import { badRequest } from '../../domain/errors.js';
import { scenarioNotLoaded } from '../../domain/error-messages.js';
import { parseScenario } from '../../scenario-engine/load-scenarios.js';
import { ActiveScenariosBodySchema } from '../../schemas/control.js';
import type { AppEnv } from '../context.js';
import type { ControlParts } from '../wiring.js';
import { parseWith, readJson } from '../validate.js';
import { appScope } from './app-scope.js';

export function scenarioControlRoutes({ scenarios: engine, apps }: Pick<ControlParts, 'scenarios' | 'apps'>) {
  /** The active set (global, or the app's effective one), and with an app whose set it is. */
  /** Unloads a scenario (the answer of DELETE /__scenarios/{name}). */
  const removeScenario = (name: string) => {
    if (!engine.remove(name)) throw scenarioNotLoaded(name);
    return { deleted: name, active: engine.active() };
  };
  const activeState = (appId: string | undefined) =>
    appId === undefined
      ? { active: engine.active() }
      : { active: engine.active(appId), appId, scope: engine.scopeOf(appId) };
  return new Hono<AppEnv>()
    .get('/', (c) => {
      const appId = appScope(c, apps, { write: false });
      return c.json({
        ...activeState(appId),
        scenarios: engine.explain(appId),
        headerActivated: engine.explainHeaderActivated(appId),
        loadErrors: engine.loadErrors(),
      });
    })
    .get('/:name', (c) => {
      const appId = appScope(c, apps, { write: false });
      const name = c.req.param('name');
      const view = engine.explainOne(name, appId);
      if (!view) throw scenarioNotLoaded(name);
      return c.json(view);
    })
    .post('/', async (c) => {
      const result = parseScenario(await readJson(c), 'scenario');
      if ('problems' in result) throw badRequest(`Invalid scenario: ${result.problems.join('; ')}`, result.details);
      const replaced = engine.has(result.scenario.name);
      engine.load(result.scenario, 'api');
      const view = engine.explain().find((s) => s.name === result.scenario.name);
      return c.json({ replaced, scenario: view }, replaced ? 200 : 201);
    })
    .post('/reset', (c) => {
      const appId = appScope(c, apps, { write: true });
      engine.reset(appId);
      return c.json({ ...activeState(appId), scenarios: engine.explain(appId) });
    })
    .put('/active', async (c) => {
      const appId = appScope(c, apps, { write: true });
      const { names } = parseWith(ActiveScenariosBodySchema, await readJson(c), 'request body');
      engine.requireLoaded(names, (unknown, loaded) =>
        badRequest(
          `Unknown scenario(s) ${unknown.map((n) => `"${n}"`).join(', ')}; loaded: ${loaded.join(', ') || 'none'}.`,
          { names: `unknown scenario "${unknown[0]}"` },
        ),
      );
      engine.setActive(names, appId);
      return c.json(activeState(appId));
    })
    .delete('/active', (c) => {
      const appId = appScope(c, apps, { write: true });
      // Without an app this is the scenario named "active", if one is loaded.
      if (appId === undefined) {
        if (engine.has('active')) return c.json(removeScenario('active'));
        throw badRequest('DELETE /__scenarios/active needs ?appId=: it returns that app to the global set.', {
          appId: 'is required',
        });
      }
      engine.useGlobal(appId);
      return c.json(activeState(appId));
    })
    .delete('/:name', (c) => c.json(removeScenario(c.req.param('name'))));
}
