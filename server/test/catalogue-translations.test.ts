import type { Network } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from './support/database.ts';
import { buildTestApp, type TestContext, type TestUser } from './support/test-app.ts';

describe(`network texts per language on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let admin: TestUser;
  let network: Network;

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.buildAdmin();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/networks',
      headers: admin.headers,
      payload: {
        name: 'Polder RTK',
        description: 'RTK corrections across the polders',
        region: 'Netherlands',
        translations: { nl: { name: 'Polder-RTK', description: 'RTK-correcties in de polders', region: 'Nederland' } },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    network = res.json() as Network;
  });
  afterAll(() => t.close());

  const publicNetwork = async (acceptLanguage?: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/networks/${network.slug}`,
      headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {},
    });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };

  it('answers a Dutch reader in Dutch and anyone else in the base language, saying the answer varies', async () => {
    const dutch = await publicNetwork('nl-NL,nl;q=0.9,en;q=0.8');
    expect(dutch.json()).toMatchObject({
      name: 'Polder-RTK',
      description: 'RTK-correcties in de polders',
      region: 'Nederland',
    });
    expect(dutch.headers.vary).toMatch(/Accept-Language/i);
    expect((await publicNetwork('en')).json()).toMatchObject({ name: 'Polder RTK', region: 'Netherlands' });
    expect((await publicNetwork()).json()).toMatchObject({ name: 'Polder RTK' });
    // Weights count: English preferred over Dutch.
    expect((await publicNetwork('nl;q=0.5, en;q=0.9')).json()).toMatchObject({ name: 'Polder RTK' });

    const list = await t.app.inject({ method: 'GET', url: '/api/networks', headers: { 'accept-language': 'nl' } });
    const listed = (list.json() as { items: Network[] }).items.find((n) => n.id === network.id);
    expect(listed?.name).toBe('Polder-RTK');
  });

  it('gives the admin the base texts with every translation, whatever the language, to edit', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/admin/networks/${network.id}`,
      headers: { ...admin.headers, 'accept-language': 'nl' },
    });
    expect(res.json()).toMatchObject({
      name: 'Polder RTK',
      translations: { nl: { name: 'Polder-RTK', description: 'RTK-correcties in de polders' } },
    });
  });

  it('falls back to the base text where a translation is empty, and keeps translations on a patch', async () => {
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/networks/${network.id}`,
      headers: admin.headers,
      payload: { translations: { nl: { name: 'Polder-RTK', description: '', region: '' } } },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect((await publicNetwork('nl')).json()).toMatchObject({
      name: 'Polder-RTK',
      description: 'RTK corrections across the polders',
      region: 'Netherlands',
    });
    const renamed = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/networks/${network.id}`,
      headers: admin.headers,
      payload: { tokenPricePerDay: 3 },
    });
    expect(renamed.json()).toMatchObject({ translations: { nl: { name: 'Polder-RTK' } } });
  });

  it('refuses a language the portal does not speak, changing nothing', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/networks/${network.id}`,
      headers: admin.headers,
      payload: { translations: { de: { name: 'Polder-Netz', description: '' } } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect((await publicNetwork('nl')).json()).toMatchObject({ name: 'Polder-RTK' });
  });
});
