import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from './support/database.ts';
import { buildTestApp, type TestContext, type TestUser } from './support/test-app.ts';

/** Issue 16: a NUL in a parameter reached PostgreSQL and came back as a 500 with the SQL in the log. */
describe(`NUL characters in requests on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let user: TestUser;
  beforeAll(async () => {
    t = await buildTestApp();
    user = await t.buildUser();
  });
  afterAll(() => t.close());

  const refusal = (where: string, field: string) => ({
    code: 'invalid_character',
    field,
    message: `Invalid ${where} field '${field}': the NUL character (U+0000) is not allowed.`,
  });

  it('refuses a NUL in a JSON body string with 400 naming the field, and creates nothing', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/organization',
      headers: user.headers,
      payload: { name: 'Null\u0000Works' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(refusal('body', 'name'));
    const info = await t.app.inject({ method: 'GET', url: '/api/user', headers: user.headers });
    expect(info.json().teams).toEqual([]);

    const account = await t.app.inject({
      method: 'POST',
      url: '/api/ntrip-accounts',
      headers: user.headers,
      payload: { label: 'Rover\u0000' },
    });
    expect(account.statusCode).toBe(400);
    expect(account.json()).toEqual(refusal('body', 'label'));
    const rows = await t.db
      .selectFrom('ntrip_accounts')
      .select('id')
      .where('owner_user_id', '=', user.userId)
      .execute();
    expect(rows).toEqual([]);
  });

  it('refuses a NUL in a query parameter', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/stations?search=ab%00cd' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(refusal('querystring', 'search'));
  });

  it('refuses a NUL in a path parameter', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/networks/dutch%00rtk' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(refusal('params', 'idOrSlug'));
  });

  it('still asks an anonymous caller to log in first', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/organization', payload: { name: 'a\u0000' } });
    expect(res.statusCode).toBe(401);
  });
});
