/**
 * The checks every API request passes before its route, in order: body size → auth →
 * scenario faults (in proxy mode auth only reads the app: the live service checks the key).
 * Each stays its own middleware module; the gate chains them as plain calls, so a request
 * crosses one Hono middleware for all three instead of three (each Hono layer costs a
 * dispatch and a promise per request: docs/performance.md#where-the-speed-comes-from).
 */
import type { MiddlewareHandler, Next } from 'hono';
import type { AppEnv } from '../context.js';
import type { AppRegistry } from '../../catalog/apps.js';
import type { EmulatorOptions } from '../../config.js';
import type { AppClockSource } from '../../domain/ports.js';
import type { ScenarioEngine } from '../../scenario-engine/engine.js';
import { limitBody } from './body-limit.js';
import { appFromHeader, auth } from './auth.js';
import { scenarioFaults } from './scenario-faults.js';

export interface ApiGateDeps {
  options: Pick<EmulatorOptions, 'bodyLimitBytes' | 'uploadLimitBytes'>;
  apps: AppRegistry;
  scenarios: ScenarioEngine;
  /** Each app's clock: an injected rate limit's reset is on the clock of the request's app. */
  clocks: AppClockSource;
}

/**
 * `proxying`: proxy mode, where the live service checks the credentials (appFromHeader):
 * a call with a wrong key gets the live 401, and a scenario fault still answers first.
 */
export function apiGate(
  { options, apps, scenarios, clocks }: ApiGateDeps,
  proxying = false,
): MiddlewareHandler<AppEnv> {
  const checkSize = limitBody(options);
  const authenticate = proxying ? appFromHeader(apps) : auth(apps);
  const applyScenarios = scenarioFaults(scenarios, clocks, options);
  // A step may resolve to a Response (a scenario's raw answer) rather than void: Hono takes
  // either from the gate, as it would from three separate middlewares.
  return (c, next) => checkSize(c, (() => authenticate(c, (() => applyScenarios(c, next)) as Next)) as Next);
}
