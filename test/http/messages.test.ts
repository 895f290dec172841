/**
 * Error messages a new user meets in the first hour: each one names the cause (the range of
 * a number, the app, the delimiter, the real reason a delivery failed), not a generic line.
 */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/index.js';
import { expectApiError, makeTestApp, errorOf, call, send, callOk } from '../helpers/app.js';
import { withChannel } from '../helpers/channels.js';
import type { CampaignView, Channel, DeliveryPage, Health, TemplateView } from '../helpers/api-types.js';
import { createCampaign, upload } from '../helpers/campaigns.js';

describe('inspect query ranges', () => {
  const app = makeTestApp();

  it.each([
    ['/__inspect/deliveries?limit=10001', 'limit', 'must be a whole number from 0 to 10,000'],
    ['/__inspect/deliveries?limit=-1', 'limit', 'must be a whole number from 0 to 10,000'],
    ['/__inspect/notifications?limit=abc', 'limit', 'must be a whole number from 0 to 10,000'],
    ['/__inspect/requests?offset=-3', 'offset', 'must be a whole number, 0 or more'],
    [
      '/__inspect/deliveries?waitFor=1&timeoutMs=999999',
      'timeoutMs',
      'must be a whole number from 0 to 300,000 (milliseconds; at most 5 minutes)',
    ],
    ['/__inspect/deliveries?waitFor=0', 'waitFor', 'must be a whole number from 1 to 10,000,000'],
  ])('%s → 400 naming %s and its range', async (path, field, message) => {
    const res = await call(app, 'GET', path);
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(res).details[field]).toBe(message);
  });

  it('accepts the limits themselves (N), refusing N+1 above', async () => {
    expect((await call<DeliveryPage>(app, 'GET', '/__inspect/deliveries?limit=10000')).status).toBe(200);
    expect((await call<DeliveryPage>(app, 'GET', '/__inspect/deliveries?waitFor=1&timeoutMs=0')).status).toBe(408);
    expect((await call<DeliveryPage>(app, 'GET', '/__inspect/deliveries?limit=0')).status).toBe(200);
  });
});

describe('/__inspect/campaigns/{id} when unknown', () => {
  it('answers 404 without speaking of "this app" (the control plane sees every app)', async () => {
    const res = await call(makeTestApp(), 'GET', '/__inspect/campaigns/ffffffffffffffffffffffff');
    expectApiError(res, 404, 'ERR_NOT_FOUND');
    expect(errorOf(res).devMessage).toBe('No campaign with id "ffffffffffffffffffffffff" exists (in any app).');
  });

  it('keeps "for this app" on the API, where an app asks', async () => {
    const res = await call(makeTestApp(), 'GET', '/api/campaigns/ffffffffffffffffffffffff');
    expect(errorOf(res).devMessage).toMatch(/exists for this app/);
  });

  it('speaks of an id for campaigns and of an id or key only for what has keys', async () => {
    const app = makeTestApp();
    const campaign = await call(app, 'GET', '/api/campaigns/nope');
    expect(errorOf(campaign).devMessage).toBe('No campaign with id "nope" exists for this app.');
    const template = await send(app, { template: { key: 'nope' }, targets: ['u1'], mode: 'realtime' });
    expect(errorOf(template).devMessage).toMatch(/^No template with id or key "nope" exists for this app\./);
    const channel = await call(app, 'GET', '/api/channels/nope');
    expect(errorOf(channel).devMessage).toBe('No channel with id or key "nope" exists for this app.');
  });
});

describe('a field left out, or of another kind', () => {
  it('left out is said to be required, with the kind of value it takes', async () => {
    const app = makeTestApp();
    const template = await call(app, 'POST', '/api/templates', { name: 'No channels' });
    expect(expectApiError(template, 400, 'ERR_BAD_REQUEST').details).toEqual({ channelIds: 'is required: an array' });
    const scenario = await call(app, 'POST', '/__scenarios', { name: 'no-rules' });
    expect(expectApiError(scenario, 400, 'ERR_BAD_REQUEST').details).toMatchObject({ rules: 'is required: an array' });
    const event = await call(app, 'POST', '/api/analytics/events', {
      campaignId: 'c',
      channelType: 'in_app',
      eventType: 'viewed',
    });
    expect(expectApiError(event, 400, 'ERR_BAD_REQUEST').details).toEqual({ userId: 'is required: a string' });
  });

  it('names both kinds a field with two forms takes', async () => {
    const app = makeTestApp();
    const body = { name: 'Two forms', channelIds: ['any-channel'] };
    const wrong = await call(app, 'POST', '/api/templates', { ...body, variableSchema: 'name' });
    expect(expectApiError(wrong, 400, 'ERR_BAD_REQUEST').details).toEqual({
      variableSchema: 'Invalid input: expected array or object',
    });
  });
});

describe('a number past 2^53', () => {
  it("is refused by the field's own range, not by zod's bound on every integer", async () => {
    const app = makeTestApp();
    const fault = (delayMs: number) => ({ name: 'huge', rules: [{ fault: { delayMs } }] });
    const low = await call(app, 'POST', '/__scenarios', fault(-1e308));
    expect(expectApiError(low, 400, 'ERR_BAD_REQUEST').details).toEqual({
      'rules.0.fault.delayMs': 'Too small: expected number to be >=0',
    });
    const high = await call(app, 'POST', '/__scenarios', fault(1e308));
    expect(expectApiError(high, 400, 'ERR_BAD_REQUEST').details).toEqual({
      'rules.0.fault.delayMs': 'Too big: expected number to be <=600000',
    });
  });

  it('keeps the safe-integer bound where the field has no range of its own', async () => {
    const app = makeTestApp();
    const rule = { fault: { delayMs: 1 }, after: 0, times: 1e308 };
    const res = await call(app, 'POST', '/__scenarios', { name: 'huge', rules: [rule] });
    expect(expectApiError(res, 400, 'ERR_BAD_REQUEST').details).toEqual({
      'rules.0.times': 'Too big: expected int to be <=9007199254740991',
    });
  });
});

describe('CSV delimiter', () => {
  it.each([
    [';', '";"-delimited'],
    ['\t', 'tab-delimited'],
  ])('a %j-delimited file gets a hint that the delimiter is a comma', async (delimiter, shape) => {
    const app = makeTestApp();
    const campaign = await createCampaign(app);
    const csv = [['user_id', 'customerName', 'cta'].join(delimiter), ['u1', 'Ada', 'x'].join(delimiter)].join('\n');
    const res = await upload(app, csv, campaign.id);
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(res).devMessage).toContain(`The header row looks ${shape}: the delimiter must be a comma (",").`);
    expect(errorOf(res).details.delimiter).toBe(
      `must be a comma; the header row holds ${JSON.stringify(delimiter)} instead`,
    );
  });

  it('gives no delimiter hint for a comma file with a bad column', async () => {
    const app = makeTestApp();
    const campaign = await createCampaign(app);
    const res = await upload(app, 'user_id,customerName,cta,nope\nu1,Ada,x,y', campaign.id);
    expectApiError(res, 400, 'ERR_BAD_REQUEST');
    expect(errorOf(res).devMessage).not.toContain('delimiter');
    expect(errorOf(res).details).not.toHaveProperty('delimiter');
  });
});

describe('a template with no channels', () => {
  it('fails its deliveries naming that cause, not disabled channels', async () => {
    // The API refuses a template linked to no channel, but a trace or a data file written
    // before it did may still hold one.
    const app = makeTestApp();
    const created = await callOk<TemplateView>(
      app,
      'POST',
      '/api/templates',
      await withChannel(app, { name: 'Empty' }),
    );
    await callOk<TemplateView>(app, 'PUT', `/api/templates/${created.id}`, { status: 'approved' });
    const trace = JSON.parse(await (await app.request('/__export')).text()) as { templates: Record<string, unknown>[] };
    trace.templates = trace.templates.map((t) => ({ ...t, channels: [], channelIds: [] }));
    await callOk(app, 'POST', '/__import', trace);
    const res = await send(app, { template: { key: 'empty' }, targets: ['u1'], mode: 'realtime' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const delivery = (await call<DeliveryPage>(app, 'GET', '/__inspect/deliveries?userId=u1')).body.items[0];
    expect(delivery).toMatchObject({ status: 'failed' });
    expect(delivery!.failureReason).toBe(
      'the template has no channels: give it channelIds (or content per channel type)',
    );
  });

  it('keeps the disabled-channels reason when the app switched every channel off', async () => {
    const app = makeTestApp();
    const channel = await call<Channel>(app, 'POST', '/api/channels', {
      name: 'In app',
      type: 'in_app',
      templateType: 'ui',
    });
    expect(channel.status, JSON.stringify(channel.body)).toBe(200);
    await callOk<Channel>(app, 'PUT', `/api/channels/${channel.body.id}`, { enabled: false });
    await send(app, { template: { key: 'plain' }, targets: ['u2'], mode: 'realtime' });
    const delivery = (await call<DeliveryPage>(app, 'GET', '/__inspect/deliveries?userId=u2')).body.items[0];
    expect(delivery!.failureReason).toBe('no channel linked to the template is enabled in this app');
  });
});

describe('admin token 401', () => {
  const app = makeTestApp({ adminToken: 't0ken' });

  it('asks for the bearer token, not for appid/apikey', async () => {
    const res = await call<Health>(app, 'GET', '/__health');
    expectApiError(res, 401, 'ERR_UNAUTHORIZED');
    expect(errorOf(res).message).toBe('Admin authentication required: send "authorization: Bearer <admin token>".');
    expect(JSON.stringify(res.body)).not.toMatch(/apikey|appid/);
  });

  it('says a given token is wrong, without printing the right one', async () => {
    const res = await call<Health>(app, 'GET', '/__health', undefined, { headers: { authorization: 'Bearer nope' } });
    expect(errorOf(res).message).toBe('Admin authentication failed: the bearer token is wrong.');
    expect(JSON.stringify(res.body)).not.toContain('t0ken');
  });
});

describe('request lines at --log-level debug', () => {
  const capture = (level: 'debug' | 'info') => {
    const lines: string[] = [];
    const logger = createLogger(level, (line) => lines.push(line));
    return { lines, app: makeTestApp({ logger }) };
  };

  it('logs one line per API request: method, path, app, status, code, duration', async () => {
    const { lines, app } = capture('debug');
    await send(app, { template: { key: 'plain' }, targets: ['u1'], mode: 'realtime' }, { appId: 'shop' });
    await send(app, { template: { key: 'nope' }, targets: ['u1'], mode: 'realtime' }, { appId: 'shop' });
    await call<CampaignView[]>(app, 'GET', '/api/campaigns', undefined, { appId: '' });
    const requests = lines.filter((l) => l.includes(' debug: '));
    expect(requests).toHaveLength(3);
    expect(requests[0]).toMatch(
      /^\[notification-emulator\] debug: POST \/api\/notifications\/send app=shop → 200 \(\d+(\.\d+)? ms\)$/,
    );
    expect(requests[1]).toMatch(/POST \/api\/notifications\/send app=shop → 404 ERR_NOT_FOUND \(\d+(\.\d+)? ms\)$/);
    expect(requests[2]).toMatch(/GET \/api\/campaigns app=- → 401 ERR_UNAUTHORIZED/);
  });

  it('names the scenario rule that shaped the answer', async () => {
    const lines: string[] = [];
    const app = makeTestApp({
      logger: createLogger('debug', (line) => lines.push(line)),
      scenarios: [{ name: 'boom', rules: [{ match: { path: '/api/*' }, fault: { error: 'ERR_OPERATION_FAILED' } }] }],
      activeScenarios: ['boom'],
    });
    await send(app, { template: { key: 'plain' }, targets: ['u1'], mode: 'realtime' });
    expect(lines.join('\n')).toMatch(/→ 500 ERR_OPERATION_FAILED \(.* ms\) \[scenario boom, /);
  });

  it('stays quiet per request at info', async () => {
    const { lines, app } = capture('info');
    await send(app, { template: { key: 'plain' }, targets: ['u1'], mode: 'realtime' });
    expect(lines).toEqual([]);
  });
});
