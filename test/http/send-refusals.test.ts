/**
 * What a refused send says, word for word: the message, devMessage and details of
 * ERR_TARGET_LIMIT_EXCEEDED, ERR_TEMPLATE_NOT_APPROVED and ERR_INVALID_VARIABLES, and the
 * shapes of `variables` each mode accepts (a per-user map is a batch-only form).
 */
import { describe, expect, it } from 'vitest';
import { BANNER, CTA, call, errorOf, expectApiError, makeTestApp, send, sendOk } from '../helpers/app.js';
import type { DeliveryPage } from '../helpers/api-types.js';

const app = makeTestApp();
const order = (variables: object, targets: string[], mode: 'realtime' | 'batch') => ({
  template: { key: 'order-confirmation', variables },
  targets,
  mode,
});

describe('ERR_TARGET_LIMIT_EXCEEDED', () => {
  it('names the count, the limit and the way out in realtime mode', async () => {
    const res = await send(app, { template: { key: 'plain' }, targets: ['a', 'b'], mode: 'realtime' });
    expect(expectApiError(res, 400, 'ERR_TARGET_LIMIT_EXCEEDED')).toEqual({
      code: 'ERR_TARGET_LIMIT_EXCEEDED',
      message: 'Too many targets for the selected mode.',
      devMessage: '2 targets given; realtime mode allows at most 1. Use mode "batch" for several users.',
      details: { targets: 'at most 1 in realtime mode, got 2' },
    });
  });

  it('names the count, the limit and the way out in batch mode, and accepts exactly 10,000', async () => {
    const targets = Array.from({ length: 10_001 }, (_, i) => `u${i}`);
    const res = await send(app, { template: { key: 'plain' }, targets, mode: 'batch' });
    expect(errorOf(res)).toEqual({
      code: 'ERR_TARGET_LIMIT_EXCEEDED',
      message: 'Too many targets for the selected mode.',
      devMessage:
        '10001 targets given; batch mode allows at most 10000. Use a campaign with a CSV upload for larger audiences.',
      details: { targets: 'at most 10000 in batch mode, got 10001' },
    });
    await sendOk(app, { template: { key: 'plain' }, targets: targets.slice(1), mode: 'batch' });
  });
});

describe('ERR_TEMPLATE_NOT_APPROVED', () => {
  it.each(['draft', 'archived'])('names the template and its status "%s"', async (status) => {
    const res = await send(app, { template: { key: `${status}-one` }, targets: ['a'], mode: 'realtime' });
    expect(expectApiError(res, 400, 'ERR_TEMPLATE_NOT_APPROVED')).toEqual({
      code: 'ERR_TEMPLATE_NOT_APPROVED',
      message: 'The template is not approved for sending.',
      devMessage: `Template "${status}-one" is "${status}"; only approved templates can be sent.`,
      details: { template: `status is "${status}"` },
    });
  });
});

describe('ERR_INVALID_VARIABLES', () => {
  it('counts the problems, names the template and lists each under its variable', async () => {
    const res = await send(app, order({ customerName: 1 }, ['a'], 'realtime'));
    expect(expectApiError(res, 400, 'ERR_INVALID_VARIABLES')).toEqual({
      code: 'ERR_INVALID_VARIABLES',
      message: 'The template variables are missing or invalid.',
      devMessage:
        '2 variable problem(s) for template "order-confirmation": template.variables.customerName must be a ' +
        'string (variable type "string"); template.variables.cta is required by the template (type "action")',
      details: {
        'template.variables.customerName': 'must be a string (variable type "string")',
        'template.variables.cta': 'is required by the template (type "action")',
      },
    });
  });

  it('lists at most five problems in devMessage and every one in details', async () => {
    const extra = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`x${i}`, 1]));
    const error = errorOf(await send(app, order({ ...extra, customerName: 'A', cta: CTA }, ['a'], 'realtime')));
    expect(Object.keys(error.details)).toEqual(Array.from({ length: 6 }, (_, i) => `template.variables.x${i}`));
    expect(error.devMessage).toMatch(/^6 variable problem\(s\) for template "order-confirmation": /);
    expect(error.devMessage.split('; ')).toHaveLength(5);
    expect(error.devMessage).toContain('template.variables.x4 is not declared');
    expect(error.devMessage).not.toContain('x5');
  });

  it('keys the problems of a per-user map by user in batch mode', async () => {
    const res = await send(app, order({ a: { customerName: 'A' }, b: { cta: CTA } }, ['a', 'b'], 'batch'));
    expect(errorOf(res).details).toEqual({
      'template.variables.a.cta': 'is required by the template (type "action")',
      'template.variables.b.customerName': 'is required by the template (type "string")',
    });
    expect(errorOf(res).devMessage).toMatch(/^2 variable problem\(s\) for template "order-confirmation": /);
  });

  it('refuses an image whose height is 1e999 (Infinity once parsed), as it refuses such a width', async () => {
    for (const [field, image] of [
      ['height', `{"url":"${BANNER.url}","width":100,"height":1e999}`],
      ['width', `{"url":"${BANNER.url}","width":1e999,"height":100}`],
    ] as const) {
      const raw =
        `{"template":{"key":"order-confirmation","variables":{"customerName":"A",` +
        `"cta":${JSON.stringify(CTA)},"banner":${image}}},"targets":["a"],"mode":"realtime"}`;
      const res = await call(app, 'POST', '/api/notifications/send', undefined, {
        raw,
        headers: { 'content-type': 'application/json' },
      });
      expect(expectApiError(res, 400, 'ERR_INVALID_VARIABLES').details).toEqual({
        'template.variables.banner':
          'must be an image object {"url": string, "width": number, "height": number}: ' +
          `"${field}" is missing or not a number`,
      });
    }
  });
});

describe('a per-user variable map', () => {
  const perUser = { u1: { customerName: 'Ada', cta: CTA } };

  it('is refused in realtime mode: the map is read as shared variables, and u1 is not one', async () => {
    const res = await send(app, order(perUser, ['u1'], 'realtime'));
    expect(expectApiError(res, 400, 'ERR_INVALID_VARIABLES').details).toEqual({
      'template.variables.customerName': 'is required by the template (type "string")',
      'template.variables.cta': 'is required by the template (type "action")',
      'template.variables.u1': "is not declared in the template's variableSchema",
    });
  });

  it('is taken per user in batch mode, in any key order, a left-out target getting none', async () => {
    const fresh = makeTestApp();
    const n = await sendOk(fresh, order({ u2: { customerName: 'Bo', cta: CTA }, ...perUser }, ['u1', 'u2'], 'batch'));
    const { body } = await call<DeliveryPage>(fresh, 'GET', `/__inspect/deliveries?notificationId=${n.notificationId}`);
    expect(body.items.map((d) => [d.userId, d.variables.customerName])).toEqual([
      ['u1', 'Ada'],
      ['u2', 'Bo'],
    ]);
    const missing = await send(fresh, order(perUser, ['u1', 'u3'], 'batch'));
    expect(expectApiError(missing, 400, 'ERR_INVALID_VARIABLES').details).toEqual({
      'template.variables.u3.customerName': 'is required by the template (type "string")',
      'template.variables.u3.cta': 'is required by the template (type "action")',
    });
  });

  it('is shared variables when a key is not a target, a declared variable, or a value is not an object', async () => {
    for (const variables of [
      { u1: perUser.u1, u9: perUser.u1 },
      { u1: perUser.u1, customerName: 'A' },
      { u1: 'Ada' },
    ]) {
      const res = await send(app, order(variables, ['u1', 'u2'], 'batch'));
      expect(Object.keys(expectApiError(res, 400, 'ERR_INVALID_VARIABLES').details)).toContain('template.variables.u1');
    }
  });
});

describe('a template named twice', () => {
  it('answers 400 naming both when key and id name different templates, and sends when they agree', async () => {
    const res = await send(app, {
      template: { key: 'plain', id: 'aaaaaaaaaaaaaaaaaaaaaaaa' },
      targets: ['a'],
      mode: 'realtime',
    });
    expect(expectApiError(res, 400, 'ERR_BAD_REQUEST')).toMatchObject({
      devMessage:
        '"template.key" (plain) and "template.id" (aaaaaaaaaaaaaaaaaaaaaaaa) name different templates; ' +
        'give one of them.',
      details: { 'template.id': 'names template "order-confirmation", not "plain"' },
    });
    const same = {
      key: 'order-confirmation',
      id: 'aaaaaaaaaaaaaaaaaaaaaaaa',
      variables: { customerName: 'A', cta: CTA },
    };
    await sendOk(app, { template: same, targets: ['a'], mode: 'realtime' });
  });
});
