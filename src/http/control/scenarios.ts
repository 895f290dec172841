/**
 * /__scenarios: list loaded scenarios with each rule explained and its remaining count,
 * load or replace one, reset counters, delete one, and set the active set (CONTRACT §7).
 */
import { Hono } from 'hono';
import { ApiError, badRequest } from '../../domain/errors.js';
import { parseScenario } from '../../scenario-engine/load-scenarios.js';
import { ActiveScenariosBodySchema } from '../../schemas/control.js';
import type { AppEnv } from '../context.js';
import { parseWith, readJson } from '../validate.js';

export const scenarioRoutes = new Hono<AppEnv>()
  .get('/', (c) => {
    const engine = c.get('emulator').scenarios;
    return c.json({ active: engine.active(), scenarios: engine.explain() });
  })
  .post('/', async (c) => {
    const result = parseScenario(await readJson(c), 'scenario');
    if ('problems' in result) throw badRequest(`Invalid scenario: ${result.problems.join('; ')}`, result.details);
    const engine = c.get('emulator').scenarios;
    const replaced = engine.has(result.scenario.name);
    engine.load(result.scenario, 'api');
    const view = engine.explain().find((s) => s.name === result.scenario.name);
    return c.json({ replaced, scenario: view }, replaced ? 200 : 201);
  })
  .post('/reset', (c) => {
    const engine = c.get('emulator').scenarios;
    engine.reset();
    return c.json({ active: engine.active(), scenarios: engine.explain() });
  })
  .put('/active', async (c) => {
    const { names } = parseWith(ActiveScenariosBodySchema, await readJson(c), 'request body');
    const engine = c.get('emulator').scenarios;
    const unknown = engine.unknown(names);
    if (unknown.length) {
      throw badRequest(
        `Unknown scenario(s) ${unknown.map((n) => `"${n}"`).join(', ')}; loaded: ${engine.names().join(', ') || 'none'}.`,
        {
          names: `unknown scenario "${unknown[0]}"`,
        },
      );
    }
    engine.setActive(names);
    return c.json({ active: engine.active() });
  })
  .delete('/:name', (c) => {
    const name = c.req.param('name');
    const engine = c.get('emulator').scenarios;
    if (!engine.remove(name)) {
      throw new ApiError('ERR_NOT_FOUND', `No scenario named "${name}" is loaded; GET /__scenarios lists them.`, {
        message: 'The scenario was not found.',
      });
    }
    return c.json({ deleted: name, active: engine.active() });
  });
