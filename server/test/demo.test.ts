import type { DemoRequestPage } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from './support/database.ts';
import { buildTestApp, type TestContext, type TestUser } from './support/test-app.ts';

const valid = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@fleet.example',
  loggedInEmail: '',
  company: 'Fleet BV',
  phoneNumber: '+31 6 12345678',
  submittedFrom: 'https://portal.example/white-label',
  message: 'We run 40 tractors.',
  gclid: 'EAIaIQobChMI',
};

describe(`demo requests on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let admin: TestUser;
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.buildAdmin();
  });
  afterAll(() => t.close());

  const stored = async () =>
    Number(
      (
        await t.db
          .selectFrom('demo_requests')
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const list = async (query = '') => {
    const res = await t.app.inject({ method: 'GET', url: `/api/admin/demo-requests${query}`, headers: admin.headers });
    expect(res.statusCode).toBe(200);
    return res.json() as DemoRequestPage;
  };

  it('stores an anonymous request with trimmed fields and lists it to an admin', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/demo-requests',
      payload: { ...valid, firstName: '  Ada ', loggedInEmail: 'someone-else@example.test' },
    });
    expect(res.statusCode).toBe(201);
    const { id } = res.json();
    const page = await list();
    expect(page.total).toBe(1);
    expect(page.items[0]).toEqual({
      ...valid,
      id,
      firstName: 'Ada',
      // An anonymous caller cannot claim to be logged in.
      loggedInEmail: '',
      createdAt: expect.any(String),
    });
  });

  it('records the logged-in caller from the token, not from the body', async () => {
    const user = await t.buildUser({ email: `fleet-${Date.now()}@example.test` });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/demo-requests',
      headers: user.headers,
      payload: { ...valid, loggedInEmail: 'boss@example.test' },
    });
    expect(res.statusCode).toBe(201);
    const row = await t.db
      .selectFrom('demo_requests')
      .select(['logged_in_email', 'user_id'])
      .where('id', '=', res.json().id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ logged_in_email: user.email, user_id: user.userId });
  });

  it('accepts the three required fields alone', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/demo-requests',
      payload: { firstName: 'Grace', lastName: 'Hopper', email: 'grace@navy.example' },
    });
    expect(res.statusCode).toBe(201);
    expect((await list()).items[0]).toMatchObject({ firstName: 'Grace', company: '', phoneNumber: '', message: '' });
  });

  it.each([
    ['firstName', { firstName: '   ' }],
    ['firstName', { firstName: undefined }],
    ['lastName', { lastName: '' }],
    ['email', { email: ' \t ' }],
    ['email', { email: 'ada@fleet' }],
    ['email', { email: 'ada lovelace@fleet.example' }],
    ['phoneNumber', { phoneNumber: '06-1234abcd' }],
    ['message', { message: 'x'.repeat(201) }],
    ['company', { company: 'c'.repeat(201) }],
  ])('refuses an invalid %s with 400 naming the field and stores nothing', async (field, change) => {
    const before = await stored();
    const res = await t.app.inject({ method: 'POST', url: '/api/demo-requests', payload: { ...valid, ...change } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', field });
    expect(await stored()).toBe(before);
  });

  it('accepts a message of exactly 200 characters', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/demo-requests',
      payload: { ...valid, message: 'm'.repeat(200) },
    });
    expect(res.statusCode).toBe(201);
  });

  it('refuses the list to an anonymous caller (401) and to a non-admin (403)', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/admin/demo-requests' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ code: 'unauthenticated', message: 'User is not logged in' });
    const user = await t.buildUser();
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/demo-requests', headers: user.headers });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'forbidden' });
  });

  it('lists newest first in pages that neither overlap nor skip', async () => {
    for (const n of [1, 2, 3]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/demo-requests',
        payload: { ...valid, firstName: `Paged ${n}` },
      });
      expect(res.statusCode).toBe(201);
    }
    const total = await stored();
    const first = await list('?limit=2');
    expect(first).toMatchObject({ total, limit: 2, offset: 0 });
    expect(first.items.map((i) => i.firstName)).toEqual(['Paged 3', 'Paged 2']);
    const all = await list(`?limit=${total}`);
    const times = all.items.map((i) => Date.parse(i.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const pages = [
      ...first.items,
      ...(await list(`?limit=2&offset=2`)).items,
      ...(await list(`?limit=50&offset=4`)).items,
    ];
    expect(pages.map((i) => i.id)).toEqual(all.items.map((i) => i.id));
  });

  it('names the bad query field of the list', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/demo-requests?limit=0', headers: admin.headers });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', field: 'limit' });
  });

  it('documents both calls in the OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = res.json().paths;
    expect(paths['/api/demo-requests'].post.requestBody).toBeDefined();
    expect(paths['/api/admin/demo-requests'].get).toBeDefined();
  });
});
