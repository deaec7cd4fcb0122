import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from './support/database.ts';
import { buildTestApp, type TestContext, type TestUser } from './support/test-app.ts';

describe(`admin users and organisations on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let admin: TestUser;
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.buildAdmin();
  });
  afterAll(() => t.close());

  it('lists users newest first with the total, and finds them by e-mail or name', async () => {
    const tag = randomUUID().slice(0, 8);
    const a = await t.buildUser({ email: `alpha-${tag}@example.test` });
    await t.buildUser({ email: `beta-${tag}@example.test`, displayName: `Beta ${tag}` });
    const all = await t.app.inject({ method: 'GET', url: '/api/admin/users?limit=2', headers: admin.headers });
    expect(all.statusCode).toBe(200);
    expect(all.json().items).toHaveLength(2);
    expect(all.json().total).toBeGreaterThanOrEqual(3);
    const found = await t.app.inject({
      method: 'GET',
      url: `/api/admin/users?search=ALPHA-${tag}`,
      headers: admin.headers,
    });
    expect(found.json()).toEqual({
      total: 1,
      limit: 50,
      offset: 0,
      items: [expect.objectContaining({ id: a.userId, email: a.email, isAdmin: false, disabled: false })],
    });
    const byName = await t.app.inject({
      method: 'GET',
      url: `/api/admin/users?search=beta%20${tag}`,
      headers: admin.headers,
    });
    expect(byName.json().total).toBe(1);
    const wildcard = await t.app.inject({
      method: 'GET',
      url: `/api/admin/users?search=%25${tag}`,
      headers: admin.headers,
    });
    expect(wildcard.json().total).toBe(0);
  });

  it('disables a user, who is then refused, and enables them again', async () => {
    const user = await t.buildUser();
    const patch = (disabled: boolean) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/admin/users/${user.userId}`,
        headers: admin.headers,
        payload: { disabled },
      });
    expect((await patch(true)).json()).toMatchObject({ id: user.userId, disabled: true });
    expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: user.headers })).statusCode).toBe(403);
    await patch(false);
    expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: user.headers })).statusCode).toBe(200);
  });

  it('makes a user an admin, and never lets an admin change their own flags', async () => {
    const user = await t.buildUser();
    const promote = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${user.userId}`,
      headers: admin.headers,
      payload: { isAdmin: true },
    });
    expect(promote.json()).toMatchObject({ isAdmin: true });
    expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: user.headers })).json().isAdmin).toBe(true);

    const self = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${admin.userId}`,
      headers: admin.headers,
      payload: { isAdmin: false },
    });
    expect(self.statusCode).toBe(409);
    expect(self.json().code).toBe('cannot_change_self');
    expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: admin.headers })).json().isAdmin).toBe(true);
  });

  it('answers 400 for an empty patch and 404 for an unknown user', async () => {
    const empty = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${randomUUID()}`,
      headers: admin.headers,
      payload: {},
    });
    expect(empty.statusCode).toBe(400);
    const unknown = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${randomUUID()}`,
      headers: admin.headers,
      payload: { disabled: true },
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('lists every organisation with its owner and member count', async () => {
    const owner = await t.buildUser();
    const name = `Admin view ${randomUUID().slice(0, 6)}`;
    await t.app.inject({ method: 'POST', url: '/api/organization', headers: owner.headers, payload: { name } });
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/organizations', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toContainEqual(expect.objectContaining({ name, ownerEmail: owner.email, memberCount: 1 }));
  });

  it('keeps all of it from non-admins (403) and anonymous callers (401), changing nothing', async () => {
    const user = await t.buildUser();
    const victim = await t.buildUser();
    for (const [method, url, payload] of [
      ['GET', '/api/admin/users', undefined],
      ['GET', '/api/admin/organizations', undefined],
      ['PATCH', `/api/admin/users/${victim.userId}`, { disabled: true }],
    ] as const) {
      expect((await t.app.inject({ method, url, payload, headers: user.headers })).statusCode).toBe(403);
      expect((await t.app.inject({ method, url, payload })).statusCode).toBe(401);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: victim.headers })).statusCode).toBe(200);
  });
});
