/**
 * Adapter between requests and the scenario engine. Until scenarios are loaded it only
 * sets the default: no delivery faults.
 */
import type { MiddlewareHandler } from 'hono';
import { NO_DELIVERY_FAULTS } from '../../domain/ports.js';
import type { AppEnv } from '../context.js';

export function scenarios(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('deliveryFaults', NO_DELIVERY_FAULTS);
    await next();
  };
}
