import type { Network } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from './support/database.ts';
import { buildTestApp, type TestContext, type TestUser } from './support/test-app.ts';

describe(`catalogue networks on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let admin: TestUser;
  let user: TestUser;

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.buildAdmin();
    user = await t.buildUser();
  });
  afterAll(() => t.close());

  const createNetwork = async (payload: Record<string, unknown>) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/networks', headers: admin.headers, payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Network;
  };

  it('lets an admin create, read, replace, patch and delete a network', async () => {
    const created = await createNetwork({
      name: 'Rijksdriehoek RTK',
      operator: 'Kadaster Partners',
      region: 'Netherlands',
      description: 'Country-wide RTK network',
      tokenPricePerDay: 12,
    });
    expect(created).toMatchObject({
      slug: 'rijksdriehoek-rtk',
      status: 'active',
      isPublic: true,
      tokenPricePerDay: 12,
      stationCount: 0,
      coverage: null,
    });

    const bySlug = await t.app.inject({ method: 'GET', url: '/api/networks/rijksdriehoek-rtk' });
    expect(bySlug.statusCode).toBe(200);
    expect(bySlug.json().id).toBe(created.id);

    const replaced = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/networks/${created.id}`,
      headers: admin.headers,
      payload: { name: 'RD RTK', slug: 'rd-rtk', tokenPricePerDay: 15 },
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    // PUT replaces the whole record: what was not sent returns to its default.
    expect(replaced.json()).toMatchObject({ name: 'RD RTK', slug: 'rd-rtk', operator: '', tokenPricePerDay: 15 });

    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/networks/${created.id}`,
      headers: admin.headers,
      payload: { status: 'maintenance' },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ name: 'RD RTK', status: 'maintenance', tokenPricePerDay: 15 });

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/networks/${created.id}`,
      headers: admin.headers,
    });
    expect(deleted.statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: `/api/networks/${created.id}` })).statusCode).toBe(404);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/networks/${created.id}`,
      headers: admin.headers,
    });
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe('not_found');
  });

  it('derives a free slug from the name and refuses a taken one with 409', async () => {
    const first = await createNetwork({ name: 'Nordic Reference Network' });
    const second = await createNetwork({ name: 'Nordic Reference Network' });
    expect(first.slug).toBe('nordic-reference-network');
    expect(second.slug).toBe('nordic-reference-network-2');

    const taken = await t.app.inject({
      method: 'POST',
      url: '/api/admin/networks',
      headers: admin.headers,
      payload: { name: 'Another', slug: 'nordic-reference-network' },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'slug_taken', field: 'slug' });
  });

  it('names the failing field of an invalid network', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'Bad slug', slug: 'Not A Slug' }, 'slug'],
      [{ name: 'Bad status', status: 'paused' }, 'status'],
      [{ name: 'Negative price', tokenPricePerDay: -1 }, 'tokenPricePerDay'],
      [{ name: '' }, 'name'],
    ];
    for (const [payload, field] of cases) {
      const res = await t.app.inject({ method: 'POST', url: '/api/admin/networks', headers: admin.headers, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', field });
    }
  });

  it('keeps hidden and retired networks out of the public catalogue but shows them to admins', async () => {
    const hidden = await createNetwork({ name: 'Hidden Partner', isPublic: false });
    const retired = await createNetwork({ name: 'Old Network', status: 'retired' });
    const visible = await createNetwork({ name: 'Visible Network' });

    const publicSlugs = (await t.app.inject({ method: 'GET', url: '/api/networks' }))
      .json()
      .items.map((n: Network) => n.slug);
    expect(publicSlugs).toContain(visible.slug);
    expect(publicSlugs).not.toContain(hidden.slug);
    expect(publicSlugs).not.toContain(retired.slug);
    expect((await t.app.inject({ method: 'GET', url: `/api/networks/${hidden.slug}` })).statusCode).toBe(404);

    const adminList = await t.app.inject({ method: 'GET', url: '/api/admin/networks', headers: admin.headers });
    const adminSlugs = adminList.json().items.map((n: Network) => n.slug);
    expect(adminSlugs).toEqual(expect.arrayContaining([hidden.slug, retired.slug, visible.slug]));
  });

  it('refuses writes by anonymous callers with 401 and by users with 403, changing nothing', async () => {
    const target = await createNetwork({ name: 'Guarded Network' });
    const writes = [
      { method: 'POST' as const, url: '/api/admin/networks', payload: { name: 'Intruder' } },
      { method: 'PUT' as const, url: `/api/admin/networks/${target.id}`, payload: { name: 'X', slug: 'x-x' } },
      { method: 'PATCH' as const, url: `/api/admin/networks/${target.id}`, payload: { name: 'Taken over' } },
      { method: 'DELETE' as const, url: `/api/admin/networks/${target.id}` },
      { method: 'POST' as const, url: `/api/admin/networks/${target.id}/import-sourcetable`, payload: { text: 'x' } },
      { method: 'GET' as const, url: '/api/admin/networks' },
    ];
    for (const write of writes) {
      const anonymous = await t.app.inject(write);
      expect(anonymous.statusCode, `${write.method} ${write.url}`).toBe(401);
      expect(anonymous.json().code).toBe('unauthenticated');
      const asUser = await t.app.inject({ ...write, headers: user.headers });
      expect(asUser.statusCode, `${write.method} ${write.url}`).toBe(403);
      expect(asUser.json().code).toBe('forbidden');
    }
    const after = await t.app.inject({ method: 'GET', url: `/api/networks/${target.id}` });
    expect(after.json()).toMatchObject({ name: 'Guarded Network', updatedAt: target.updatedAt });
  });

  it('answers the public list with an ETag and 304 when nothing changed, and a new ETag after a change', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/api/networks' });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('public, no-cache');

    const unchanged = await t.app.inject({ method: 'GET', url: '/api/networks', headers: { 'if-none-match': etag } });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe('');

    await createNetwork({ name: 'Fresh Network' });
    const changed = await t.app.inject({ method: 'GET', url: '/api/networks', headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });
});
