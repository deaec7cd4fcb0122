import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from './support/database.ts';
import { buildTestApp, type TestContext } from './support/test-app.ts';

describe(`GET /api/user and token checks on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('answers teams and the admin flag for an emulator token, creating the user row on first sight', async () => {
    const user = await t.buildUser({ displayName: 'Rover Owner', acceptTerms: false });
    const res = await t.app.inject({ method: 'GET', url: '/api/user', headers: user.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ teams: [], isAdmin: false, termsAcceptedAt: null, termsVersion: null });
    const row = await t.db
      .selectFrom('users')
      .selectAll()
      .where('firebase_uid', '=', user.uid)
      .executeTakeFirstOrThrow();
    expect(row.email).toBe(user.email);
  });

  it('reports the server-side admin flag', async () => {
    const admin = await t.buildAdmin({ acceptTerms: false });
    const res = await t.app.inject({ method: 'GET', url: '/api/user', headers: admin.headers });
    expect(res.json()).toEqual({ teams: [], isAdmin: true, termsAcceptedAt: null, termsVersion: null });
  });

  it.each([
    ['no header', undefined],
    ['a malformed token', 'Bearer bad'],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['a token with a forged payload', 'Bearer eyJhbGciOiJub25lIn0.eyJ1aWQiOiJ4In0.'],
  ])('answers 401 with a code for %s', async (_name, authorization) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/user',
      headers: authorization ? { authorization } : {},
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'unauthenticated', message: 'User is not logged in' });
  });

  it('refuses a disabled account with 403', async () => {
    const user = await t.buildUser();
    await t.db.updateTable('users').set({ disabled: true }).where('id', '=', user.userId).execute();
    const res = await t.app.inject({ method: 'GET', url: '/api/user', headers: user.headers });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('account_disabled');
  });

  it('publishes an OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().paths)).toEqual(
      expect.arrayContaining(['/api/user', '/api/user/terms', '/api/meta', '/api/meta/pages/{page}']),
    );
  });

  it('answers unknown API routes with a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('not_found');
  });
});
