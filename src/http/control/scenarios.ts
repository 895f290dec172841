/**
 * /__scenarios: list loaded scenarios with each rule explained and its remaining count,
 * load or replace one, reset counters, delete one, and set the active set (docs/reference.md#scenarios).
 */
import { Hono } from 'hono';
import { badRequest } from '../../domain/errors.js';
import { scenarioNotLoaded } from '../../domain/error-messages.js';
import { parseScenario } from '../../scenario-engine/load-scenarios.js';
import { ActiveScenariosBodySchema, NoQuerySchema } from '../../schemas/control.js';
import type { AppEnv } from '../context.js';
import type { Emulator } from '../../emulator.js';
import { parseQuery, parseWith, readJson } from '../validate.js';

export function scenarioControlRoutes({ scenarios: engine }: Pick<Emulator, 'scenarios'>) {
  return new Hono<AppEnv>()
    .get('/', (c) => {
      parseQuery(c, NoQuerySchema);
      return c.json({
        active: engine.active(),
        scenarios: engine.explain(),
        headerActivated: engine.explainHeaderActivated(),
        loadErrors: engine.loadErrors(),
      });
    })
    .get('/:name', (c) => {
      parseQuery(c, NoQuerySchema);
      const name = c.req.param('name');
      const view = engine.explainOne(name);
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
      engine.reset();
      return c.json({ active: engine.active(), scenarios: engine.explain() });
    })
    .put('/active', async (c) => {
      const { names } = parseWith(ActiveScenariosBodySchema, await readJson(c), 'request body');
      engine.requireLoaded(names, (unknown, loaded) =>
        badRequest(
          `Unknown scenario(s) ${unknown.map((n) => `"${n}"`).join(', ')}; loaded: ${loaded.join(', ') || 'none'}.`,
          { names: `unknown scenario "${unknown[0]}"` },
        ),
      );
      engine.setActive(names);
      return c.json({ active: engine.active() });
    })
    .delete('/:name', (c) => {
      const name = c.req.param('name');
      if (!engine.remove(name)) throw scenarioNotLoaded(name);
      return c.json({ deleted: name, active: engine.active() });
    });
}
