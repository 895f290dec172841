/**
 * /__scenarios: list loaded scenarios with each rule explained and its remaining count,
 * load or replace one, reset counters, delete one, and set the active set (docs/reference.md#scenarios).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { ApiError, badRequest } from '../../domain/errors.js';
import { parseScenario } from '../../scenario-engine/load-scenarios.js';
import type { ScenarioEngine } from '../../scenario-engine/engine.js';
import type { AppEnv } from '../context.js';
import { parseWith, readJson } from '../validate.js';

const ActiveBodySchema = z.strictObject({
  names: z.array(z.string().min(1), { error: 'must be an array of scenario names' }),
});

export function scenarioControlRoutes({ scenarios: engine }: { scenarios: ScenarioEngine }) {
  return new Hono<AppEnv>()
    .get('/', (c) => {
      return c.json({ active: engine.active(), scenarios: engine.explain() });
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
      const { names } = parseWith(ActiveBodySchema, await readJson(c), 'request body');
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
      if (!engine.remove(name)) {
        throw new ApiError('ERR_NOT_FOUND', `No scenario named "${name}" is loaded; GET /__scenarios lists them.`, {
          message: 'The scenario was not found.',
        });
      }
      return c.json({ deleted: name, active: engine.active() });
    });
}
