/**
 * /__scenarios: list loaded scenarios with each rule explained and its remaining count,
 * load or replace one, reset counters, delete one, and set the active set (CONTRACT §7).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { ApiError, badRequest } from '../../domain/errors.js';
import { parseScenario } from '../../scenario-engine/load-scenarios.js';
import type { AppEnv } from '../context.js';
import { NoQuerySchema } from '../../schemas/control.js';
import { parseQuery, parseWith, readJson } from '../validate.js';

const ActiveBodySchema = z.strictObject({
  names: z.array(z.string().min(1), { error: 'must be an array of scenario names' }),
});

const notLoaded = (name: string) =>
  new ApiError('ERR_NOT_FOUND', `No scenario named "${name}" is loaded; GET /__scenarios lists them.`, {
    message: 'The scenario was not found.',
  });

export const scenarioRoutes = new Hono<AppEnv>()
  .get('/', (c) => {
    parseQuery(c, NoQuerySchema);
    const engine = c.get('emulator').scenarios;
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
    const view = c.get('emulator').scenarios.explainOne(name);
    if (!view) throw notLoaded(name);
    return c.json(view);
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
    const { names } = parseWith(ActiveBodySchema, await readJson(c), 'request body');
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
    if (!engine.remove(name)) throw notLoaded(name);
    return c.json({ deleted: name, active: engine.active() });
  });
