/**
 * Every route of the emulator in one place: the API (under both prefixes) and the control
 * plane. A route added, removed or moved shows up here as a snapshot change to review.
 */
import { describe, expect, it } from 'vitest';
import { inspectRoutes } from 'hono/dev';
import { makeTestApp } from '../helpers/app.js';

describe('route table', () => {
  it('lists every route (method and path) the emulator answers', () => {
    const app = makeTestApp();
    const routes = inspectRoutes(app)
      .filter((r) => !r.isMiddleware)
      .map((r) => `${r.method.padEnd(6)} ${r.path}`);
    expect(routes).toMatchSnapshot();
    void app.close();
  });
});
