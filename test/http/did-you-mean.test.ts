/**
 * A mistyped key gets the valid one nearest to it: a control body's unknown key, a template
 * key the app does not have. The envelope stays the contract's; the hint is in its words.
 */
import { describe, expect, it } from 'vitest';
import { call, expectApiError, makeTestApp, send } from '../helpers/app.js';
import { closestName } from '../../src/domain/did-you-mean.js';

describe('did you mean', () => {
  it('POST /__clock {"advance":1000}: 400 naming advanceMs', async () => {
    const app = makeTestApp();
    const error = expectApiError(await call(app, 'POST', '/__clock', { advance: 1000 }), 400, 'ERR_BAD_REQUEST');
    expect(error.details['(body)']).toBe('Unrecognized key: "advance" (did you mean "advanceMs"?)');
    expect(error.devMessage).toContain('(did you mean "advanceMs"?)');
    await app.close();
  });

  it('a key near none of the body gets no guess', async () => {
    const app = makeTestApp();
    const error = expectApiError(await call(app, 'POST', '/__clock', { zzzzzzzz: 1 }), 400, 'ERR_BAD_REQUEST');
    expect(error.details['(body)']).toBe('Unrecognized key: "zzzzzzzz"');
    await app.close();
  });

  it('a send to template "greetnig": 404 whose devMessage names "greeting"', async () => {
    const app = makeTestApp();
    const body = { template: { key: 'greetnig', variables: { name: 'Ada' } }, targets: ['u1'], mode: 'realtime' };
    const error = expectApiError(await send(app, body), 404, 'ERR_NOT_FOUND');
    expect(error.devMessage).toBe(
      'No template with id or key "greetnig" exists for this app. Did you mean "greeting"? ' +
        'Shared templates: 5 template(s) from the templates option.',
    );
    expect(error.message).toBe('The template was not found.');
    await app.close();
  });

  it('a template key near none gets the 404 as before', async () => {
    const app = makeTestApp();
    const body = { template: { key: 'nothing-like-it' }, targets: ['u1'], mode: 'realtime' };
    const error = expectApiError(await send(app, body), 404, 'ERR_NOT_FOUND');
    expect(error.devMessage).toMatch(/^No template with id or key "nothing-like-it" exists for this app\.( Shared|$)/);
    await app.close();
  });

  it('GET /api/templates/{key} with a typo names the key too', async () => {
    const app = makeTestApp();
    const error = expectApiError(await call(app, 'GET', '/api/templates/order-confirmaton'), 404, 'ERR_NOT_FOUND');
    expect(error.devMessage).toContain('Did you mean "order-confirmation"?');
    await app.close();
  });

  it.each([
    ['prot', ['port', 'host'], 'port'],
    ['welcom-message', ['welcome-message', 'password-reset'], 'welcome-message'],
    ['advance', ['advanceMs', 'now', 'mode'], 'advanceMs'],
    ['VIWE', ['view', 'pull'], 'view'],
    ['x', ['host', 'port'], undefined],
    ['anything', [], undefined],
  ])('closestName(%j, %j) is %j', (typed, names, expected) => {
    expect(closestName(typed, names)).toBe(expected);
  });
});
