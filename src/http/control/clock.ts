/**
 * /__clock (docs/reference.md#clock): read the emulator clock, move it (manual mode) or go back to
 * real time. Moving it past a scheduled campaign's scheduledAt starts that campaign at once.
 * With `?appId=`, the app's clock: the shared one it follows, or its own, which the first
 * POST gives it (from the shared clock's instant) and DELETE takes away.
 */
import { Hono } from 'hono';
import type { EmulatorClock } from '../../platform/clock.js';
import type { AppEnv } from '../context.js';
import type { ControlParts } from '../wiring.js';
import { ClockBodySchema } from '../../schemas/control.js';
import { readJsonBody } from '../validate.js';
import { badRequest } from '../../domain/errors.js';
import { instantProblem } from '../../domain/instants.js';
import { appScope } from './app-scope.js';
import type { z } from 'zod';

type ClockBody = z.infer<typeof ClockBodySchema>;

/** Refuses a move past the instants the clock can stand at, before anything changes. */
function checkTarget(body: ClockBody, now: number): void {
  const target = body.advanceMs !== undefined ? now + body.advanceMs : body.now && Date.parse(body.now);
  const problem = typeof target === 'number' ? instantProblem(target) : null;
  if (problem === null) return;
  const field = body.advanceMs !== undefined ? 'advanceMs' : 'now';
  throw badRequest(`The clock cannot move there: the instant ${problem}. The clock is unchanged.`, {
    [field]: `the resulting instant ${problem}`,
  });
}

function move(clock: EmulatorClock, body: ClockBody): void {
  if (body.advanceMs !== undefined) clock.advance(body.advanceMs);
  else if (body.now !== undefined) clock.set(body.now);
  else if (body.mode === 'real') clock.useRealTime();
  else clock.advance(0); // {"mode": "manual"}: freeze at the current instant
}

export function clockRoutes({ clocks, apps }: Pick<ControlParts, 'clocks' | 'apps'>) {
  const clockState = (appId: string | undefined) => {
    const clock = appId === undefined ? clocks.shared : clocks.currentOf(appId);
    const state = { now: clock.nowIso(), mode: clock.mode };
    return appId === undefined ? state : { ...state, appId, scope: clocks.scopeOf(appId) };
  };
  return new Hono<AppEnv>()
    .get('/', (c) => c.json(clockState(appScope(c, apps, { write: false }))))
    .post('/', async (c) => {
      const appId = appScope(c, apps, { write: true });
      const body = await readJsonBody(c, ClockBodySchema);
      checkTarget(body, (appId === undefined ? clocks.shared : clocks.currentOf(appId)).now());
      if (appId === undefined) move(clocks.shared, body);
      else clocks.move(appId, (own) => move(own, body));
      return c.json(clockState(appId));
    })
    .delete('/', (c) => {
      const appId = appScope(c, apps, { write: true });
      if (appId === undefined)
        throw badRequest('DELETE /__clock needs ?appId=: it returns that app to the shared clock.', {
          appId: 'is required',
        });
      clocks.release(appId);
      return c.json(clockState(appId));
    });
}
