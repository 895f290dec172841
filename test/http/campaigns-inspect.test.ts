import type { Campaign, Recipient } from '../../src/index.js';
import { describe, expect, it } from 'vitest';
import { expectApiError, makeTestApp, callOk, type List, call } from '../helpers/app.js';

describe('/__inspect/campaigns', () => {
  async function seed() {
    const app = makeTestApp();
    const mk = async (appId: string, name: string) =>
      (
        await call<Campaign>(
          app,
          'POST',
          '/api/campaigns',
          { name, templateId: 'plain', deliveryMode: 'batch' },
          { appId },
        )
      ).body;
    const a = await mk('app-a', 'A');
    const b = await mk('app-b', 'B');
    await callOk<{ added: number; total: number }>(
      app,
      'POST',
      `/api/campaigns/${a.id}/recipients`,
      { userIds: ['u1', 'u2', 'u3'] },
      { appId: 'app-a' },
    );
    return { app, a, b };
  }

  it("lists every app's campaigns as {total, items}, filtered by appId and status, paged", async () => {
    const { app, a, b } = await seed();
    const all = (await call<List<Campaign>>(app, 'GET', '/__inspect/campaigns')).body;
    expect(all.total).toBe(2);
    expect(all.items.map((c) => c.id)).toEqual([a.id, b.id]);
    expect(all.items[0]).toMatchObject({ templateName: 'Plain', recipientCount: 3 });
    expect(
      (await call<List<Campaign>>(app, 'GET', '/__inspect/campaigns?appId=app-b')).body.items.map((c) => c.id),
    ).toEqual([b.id]);
    expect((await call<List<Campaign>>(app, 'GET', '/__inspect/campaigns?status=sent')).body).toEqual({
      total: 0,
      items: [],
    });
    expect((await call<List<Campaign>>(app, 'GET', '/__inspect/campaigns?limit=1&offset=1')).body).toMatchObject({
      total: 2,
      items: [{ id: b.id }],
    });
    expectApiError(await call<List<Campaign>>(app, 'GET', '/__inspect/campaigns?status=bogus'), 400, 'ERR_BAD_REQUEST');
  });

  it('gets one campaign of any app, 404 for an unknown id', async () => {
    const { app, b } = await seed();
    expect((await call<Campaign>(app, 'GET', `/__inspect/campaigns/${b.id}`)).body).toMatchObject({
      id: b.id,
      appId: 'app-b',
    });
    const unknown = await call(app, 'GET', '/__inspect/campaigns/ffffffffffffffffffffffff');
    expect(expectApiError(unknown, 404, 'ERR_NOT_FOUND').devMessage).toBe(
      'No campaign with id "ffffffffffffffffffffffff" exists (in any app).',
    );
  });

  it("with ?appId=, gets that app's campaign and its recipients only, naming the app in the 404", async () => {
    const { app, a } = await seed();
    expect((await callOk<Campaign>(app, 'GET', `/__inspect/campaigns/${a.id}?appId=app-a`)).id).toBe(a.id);
    expect(
      (await callOk<List<Recipient>>(app, 'GET', `/__inspect/campaigns/${a.id}/recipients?appId=app-a`)).total,
    ).toBe(3);
    for (const path of [
      `/__inspect/campaigns/${a.id}?appId=app-b`,
      `/__inspect/campaigns/${a.id}/recipients?appId=app-b`,
    ]) {
      const res = await call(app, 'GET', path);
      expect(expectApiError(res, 404, 'ERR_NOT_FOUND').devMessage, path).toBe(
        `No campaign with id "${a.id}" exists for this app. (app "app-b")`,
      );
    }
  });

  it('pages recipients with limit/offset and filters by status', async () => {
    const { app, a } = await seed();
    const page = (await call<List<Recipient>>(app, 'GET', `/__inspect/campaigns/${a.id}/recipients?limit=2&offset=1`))
      .body;
    expect(page.total).toBe(3);
    expect(page.items.map((r) => r.userId)).toEqual(['u2', 'u3']);
    expect(
      (await call<List<Recipient>>(app, 'GET', `/__inspect/campaigns/${a.id}/recipients?status=pending`)).body.total,
    ).toBe(3);
    expectApiError(
      await call<List<Recipient>>(app, 'GET', `/__inspect/campaigns/${a.id}/recipients?status=sending`),
      400,
      'ERR_BAD_REQUEST',
    );
    expectApiError(
      await call(app, 'GET', '/__inspect/campaigns/ffffffffffffffffffffffff/recipients'),
      404,
      'ERR_NOT_FOUND',
    );
  });

  it("DELETE /__inspect?appId= removes that app's campaigns only", async () => {
    const { app, b } = await seed();
    await callOk(app, 'DELETE', '/__inspect?appId=app-a');
    expect((await call<List<Campaign>>(app, 'GET', '/__inspect/campaigns')).body.items.map((c) => c.id)).toEqual([
      b.id,
    ]);
  });
});
