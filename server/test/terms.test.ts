import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { standardProducts, startCheckout } from './billing/support.ts';
import { testDatabaseKind } from './support/database.ts';
import { createNetwork } from './support/factories.ts';
import { buildTestApp, type TestContext, type TestUser } from './support/test-app.ts';

describe(`terms acceptance (GET /api/user, POST /api/user/terms) on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const userInfo = async (user: TestUser) =>
    (await t.app.inject({ method: 'GET', url: '/api/user', headers: user.headers })).json();
  const accept = (user: TestUser, payload: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/user/terms', headers: user.headers, payload: payload as object });

  it('starts a new user without an acceptance, records it once and reports it in GET /api/user', async () => {
    const user = await t.buildUser({ acceptTerms: false });
    expect((await userInfo(user)).termsAcceptedAt).toBeNull();

    const before = Date.now();
    const first = await accept(user, { accepted: true });
    expect(first.statusCode).toBe(200);
    const { termsAcceptedAt } = first.json();
    expect(new Date(termsAcceptedAt).toISOString()).toBe(termsAcceptedAt);
    // The database clock, not this process's: allow a little skew either way.
    expect(Math.abs(new Date(termsAcceptedAt).getTime() - before)).toBeLessThan(60_000);
    expect((await userInfo(user)).termsAcceptedAt).toBe(termsAcceptedAt);

    const again = await accept(user, { accepted: true });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ termsAcceptedAt });
  });

  it('changes only the caller', async () => {
    const [a, b] = [await t.buildUser({ acceptTerms: false }), await t.buildUser({ acceptTerms: false })];
    expect((await accept(a, { accepted: true })).statusCode).toBe(200);
    expect((await userInfo(b)).termsAcceptedAt).toBeNull();
  });

  it.each([
    ['accepted false', { accepted: false }],
    ['accepted as a string', { accepted: 'true' }],
    ['an empty body', {}],
    ['an extra field', { accepted: true, at: '2020-01-01T00:00:00.000Z' }],
  ])('answers 400 validation_failed for %s and records nothing', async (_name, payload) => {
    const user = await t.buildUser({ acceptTerms: false });
    const res = await accept(user, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(expect.objectContaining({ code: 'validation_failed', message: expect.any(String) }));
    expect((await userInfo(user)).termsAcceptedAt).toBeNull();
  });

  it('answers 400 for a body that is not JSON', async () => {
    const user = await t.buildUser({ acceptTerms: false });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/user/terms',
      headers: { ...user.headers, 'content-type': 'text/plain' },
      payload: 'yes',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
  });

  it('answers 401 without a token, before looking at the body', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/user/terms', payload: { accepted: false } });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('unauthenticated');
  });

  it('migrates existing users as having accepted when they signed up', async () => {
    const migration = readFileSync(
      new URL('../src/db/migrations/202611231930_terms_acceptance.sql', import.meta.url),
      'utf8',
    );
    const user = await t.buildUser({ acceptTerms: false });
    await t.db
      .updateTable('users')
      .set({ created_at: '2025-03-04T05:06:07.000Z' })
      .where('id', '=', user.userId)
      .execute();
    await sql`ALTER TABLE users DROP COLUMN terms_accepted_at`.execute(t.db);
    await sql.raw(migration).execute(t.db);
    expect((await userInfo(user)).termsAcceptedAt).toBe('2025-03-04T05:06:07.000Z');
  });

  it('refuses a checkout to a user who has not accepted (403 terms_not_accepted, nothing started) until they do', async () => {
    const admin = await t.buildAdmin();
    const { monthly, tokens } = await standardProducts(t, admin, [(await createNetwork(t.db)).id]);
    const user = await t.buildUser({ acceptTerms: false });
    for (const [kind, priceId] of [
      ['subscription', monthly.priceId],
      ['product', tokens.priceId],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/checkout/${kind}?priceId=${encodeURIComponent(priceId)}`,
        headers: user.headers,
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(expect.objectContaining({ code: 'terms_not_accepted', message: expect.any(String) }));
    }
    const started = await t.db
      .selectFrom('checkout_sessions')
      .select('id')
      .where('user_id', '=', user.userId)
      .execute();
    expect(started).toEqual([]);

    expect((await accept(user, { accepted: true })).statusCode).toBe(200);
    expect((await startCheckout(t, user, 'product', tokens.priceId)).checkoutSessionId).toEqual(expect.any(String));
  });
});
