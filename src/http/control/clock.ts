/**
 * /__clock (docs/reference.md#clock): read the emulator clock, move it (manual mode) or go back to
 * real time. Moving it past a scheduled campaign's scheduledAt starts that campaign at once.
 */
import { Hono } from 'hono';
import type { EmulatorClock } from '../../platform/clock.js';
import type { AppEnv } from '../context.js';
import { ClockBodySchema } from '../../schemas/control.js';
import { readJsonBody } from '../validate.js';

export function clockRoutes({ clock }: { clock: EmulatorClock }) {
  const clockState = () => ({ now: clock.nowIso(), mode: clock.mode });
  return new Hono<AppEnv>()
    .get('/', (c) => c.json(clockState()))
    .post('/', async (c) => {
      const body = await readJsonBody(c, ClockBodySchema);
      if (body.advanceMs !== undefined) clock.advance(body.advanceMs);
      else if (body.now !== undefined) clock.set(body.now);
      else if (body.mode === 'real') clock.useRealTime();
      else clock.advance(0); // {"mode": "manual"}: freeze at the current instant
      return c.json(clockState());
    });
}
