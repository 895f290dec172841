/**
 * The runtime templates API in detail: the words of each refusal, the extras (config,
 * availability, sequence) a create stores and an update keeps or replaces, and channelIds
 * naming a channel twice or two channels of one type.
 */
import { describe, expect, it } from 'vitest';
import { call, callOk, expectApiError, makeTestApp } from '../helpers/app.js';
import type { Channel, TemplateView } from '../helpers/api-types.js';
import type { EmulatorApp } from '../../src/index.js';
import { withChannel } from '../helpers/channels.js';

async function channel(app: EmulatorApp, name: string): Promise<string> {
  return (await callOk<Channel>(app, 'POST', '/api/channels', { name, type: 'in_app', templateType: 'ui' })).id;
}

const create = async (app: EmulatorApp, body: Record<string, unknown>) =>
  call<TemplateView>(app, 'POST', '/api/templates', await withChannel(app, body));

const update = (app: EmulatorApp, id: string, body: Record<string, unknown>) =>
  call<TemplateView>(app, 'PUT', `/api/templates/${id}`, body);

const WITH_EXTRAS = { name: 'Full', config: { priority: 'high' }, availability: 'all', sequence: 2 };

describe('POST /api/templates', () => {
  it('stores config, availability and sequence as given, and null for those left out', async () => {
    const app = makeTestApp();
    const full = await callOk<TemplateView>(app, 'POST', '/api/templates', await withChannel(app, WITH_EXTRAS));
    expect(full).toMatchObject({ config: { priority: 'high' }, availability: 'all', sequence: 2 });
    const bare = await callOk<TemplateView>(app, 'POST', '/api/templates', await withChannel(app, { name: 'Bare' }));
    expect(bare).toMatchObject({ config: {}, availability: null, sequence: null });
  });

  it('links a channel named twice once, and lists a type two linked channels share once', async () => {
    const app = makeTestApp();
    const inbox = await channel(app, 'Inbox');
    const banner = await channel(app, 'Banner');
    const created = await callOk<TemplateView>(app, 'POST', '/api/templates', {
      name: 'Twice',
      channelIds: [inbox, 'inbox', banner],
    });
    expect(created).toMatchObject({ channelIds: [inbox, banner], channels: ['in_app'] });
  });

  it('names the field a used slug came from: templateId, or name when the slug was derived', async () => {
    const app = makeTestApp();
    const promo = await callOk<TemplateView>(app, 'POST', '/api/templates', await withChannel(app, { name: 'Promo' }));
    const byName = expectApiError(await create(app, { name: 'promo!' }), 400, 'ERR_BAD_REQUEST');
    expect(byName).toMatchObject({
      devMessage: `Template slug "promo" is already used by template ${promo.id}; choose another templateId.`,
      details: { name: `slug "promo" is already used by template ${promo.id}` },
    });
    const byId = expectApiError(await create(app, { name: 'X', templateId: 'promo' }), 400, 'ERR_BAD_REQUEST');
    expect(byId.details).toEqual({ templateId: `slug "promo" is already used by template ${promo.id}` });
  });

  it('names name when it holds no letter or digit to derive a slug from', async () => {
    const res = expectApiError(await create(makeTestApp(), { name: '!!!' }), 400, 'ERR_BAD_REQUEST');
    expect(Object.keys(res.details)).toEqual(['name']);
  });

  it('says which channelIds are unknown in this app', async () => {
    const res = expectApiError(
      await create(makeTestApp(), { name: 'X', channelIds: ['nope'] }),
      400,
      'ERR_BAD_REQUEST',
    );
    expect(res).toMatchObject({
      devMessage: 'channelIds names channels that do not exist in this app (create them with POST /api/channels).',
      details: { 'channelIds.0': 'no channel with id or key "nope" in this app' },
    });
  });
});

describe('PUT /api/templates/{id}', () => {
  it('keeps config, availability and sequence a body leaves out, and replaces those it gives', async () => {
    const app = makeTestApp();
    const created = await callOk<TemplateView>(app, 'POST', '/api/templates', await withChannel(app, WITH_EXTRAS));
    const renamed = await callOk<TemplateView>(app, 'PUT', `/api/templates/${created.id}`, { name: 'Promo 2' });
    expect(renamed).toMatchObject({ config: { priority: 'high' }, availability: 'all', sequence: 2 });
    const changed = await callOk<TemplateView>(app, 'PUT', `/api/templates/${created.id}`, {
      config: { priority: 'low' },
      availability: null,
      sequence: 5,
    });
    expect(changed).toMatchObject({ config: { priority: 'low' }, availability: null, sequence: 5 });
  });

  it('accepts the slug echoed unchanged and refuses a new one, saying what it is', async () => {
    const app = makeTestApp();
    const created = await callOk<TemplateView>(
      app,
      'POST',
      '/api/templates',
      await withChannel(app, { name: 'Promo' }),
    );
    expect((await update(app, created.id, { templateId: 'promo', key: 'promo', name: 'P' })).status).toBe(200);
    const res = expectApiError(await update(app, created.id, { key: 'other' }), 400, 'ERR_BAD_REQUEST');
    expect(res).toMatchObject({
      devMessage: `The slug of template ${created.id} is immutable (it is "promo").`,
      details: { key: 'is immutable after creation' },
    });
  });

  it('says which statuses a refused status change could have gone to', async () => {
    const app = makeTestApp();
    const created = await callOk<TemplateView>(
      app,
      'POST',
      '/api/templates',
      await withChannel(app, { name: 'Promo' }),
    );
    await callOk<TemplateView>(app, 'PUT', `/api/templates/${created.id}`, { status: 'archived' });
    const res = expectApiError(await update(app, created.id, { status: 'approved' }), 400, 'ERR_BAD_REQUEST');
    expect(res).toMatchObject({
      devMessage: 'A template in status "archived" cannot move to "approved"; from "archived" it can move to "draft".',
      details: { status: 'cannot change from "archived" to "approved" (allowed: "draft")' },
    });
    await callOk<TemplateView>(app, 'PUT', `/api/templates/${created.id}`, { status: 'draft' });
    await callOk<TemplateView>(app, 'PUT', `/api/templates/${created.id}`, { status: 'approved' });
    const back = expectApiError(await update(app, created.id, { status: 'draft' }), 400, 'ERR_BAD_REQUEST');
    expect(back.details).toEqual({ status: 'cannot change from "approved" to "draft" (allowed: "archived")' });
  });
});

describe('DELETE /api/templates/{id}', () => {
  it('refuses a fixture template, saying how to retire it instead', async () => {
    const res = expectApiError(await call(makeTestApp(), 'DELETE', '/api/templates/plain'), 400, 'ERR_BAD_REQUEST');
    expect(res).toMatchObject({
      devMessage:
        'Template "plain" comes from the fixture files and is read-only; archive it instead (PUT ' +
        '{"status":"archived"}) or edit fixtures/templates.',
      details: { id: 'fixture templates cannot be deleted' },
    });
  });
});
