import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerRows } from '../ntrip-accounts/support.ts';
import { testDatabaseKind } from '../support/database.ts';
import { createAccount, createNetwork, grantTokens } from '../support/factories.ts';
import { buildTestApp, type TestContext } from '../support/test-app.ts';

describe(`Idempotency-Key (issue 37) on ${testDatabaseKind()}`, { timeout: 90_000 }, () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('a repeat returns the first account; a different body with the same key is 409', async () => {
    const user = await t.buildUser();
    const headers = { ...user.headers, 'idempotency-key': 'create-drone-7' };
    const first = await t.app.inject({ method: 'POST', url: '/api/ntrip-accounts', headers, payload: { label: 'D7' } });
    expect(first.statusCode, first.body).toBe(201);
    const again = await t.app.inject({ method: 'POST', url: '/api/ntrip-accounts', headers, payload: { label: 'D7' } });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');

    const other = await t.app.inject({ method: 'POST', url: '/api/ntrip-accounts', headers, payload: { label: 'D8' } });
    expect(other.statusCode).toBe(409);
    expect(other.json().code).toBe('idempotency_key_reused');
    const list = await t.app.inject({ method: 'GET', url: '/api/ntrip-accounts', headers: user.headers });
    expect(list.json().items).toHaveLength(1);

    // Kept 24 hours: after that, the key is free again.
    await t.db
      .updateTable('idempotency_keys')
      .set({ created_at: new Date(Date.now() - 25 * 3600_000) })
      .where('user_id', '=', user.userId)
      .execute();
    const later = await t.app.inject({ method: 'POST', url: '/api/ntrip-accounts', headers, payload: { label: 'D8' } });
    expect(later.statusCode).toBe(201);
    expect(later.json().account.id).not.toBe(first.json().account.id);
  });

  it('20 concurrent repeats of an activation spend the tokens once and all answer the same grant', async () => {
    const admin = await t.buildAdmin();
    const user = await t.buildUser();
    const network = await createNetwork(t.db, { price: 10 });
    await grantTokens(t, admin, user, 100);
    const { account } = await createAccount(t, user);
    const headers = { ...user.headers, 'idempotency-key': 'activate-once' };
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.app.inject({
          method: 'POST',
          url: '/api/tokens',
          headers,
          payload: { accountId: account.id, feedNetworkId: network.id, days: 2 },
        }),
      ),
    );
    for (const r of results) expect(r.statusCode, r.body).toBe(201);
    const grants = new Set(results.map((r) => r.json().grant.id));
    expect(grants.size).toBe(1);
    expect(results.every((r) => r.json().tokenAmount === 80)).toBe(true);
    const spends = (await ledgerRows(t.db, user.userId)).filter((row) => row.delta < 0);
    expect(spends).toEqual([expect.objectContaining({ delta: -20, balance_after: 80 })]);
  });

  it('20 concurrent repeats of a creation make one account', async () => {
    const user = await t.buildUser();
    const headers = { ...user.headers, 'idempotency-key': 'one-rover' };
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.app.inject({ method: 'POST', url: '/api/ntrip-accounts', headers, payload: { label: 'Once' } }),
      ),
    );
    for (const r of results) expect(r.statusCode, r.body).toBe(201);
    expect(new Set(results.map((r) => r.json().account.id)).size).toBe(1);
    const list = await t.app.inject({ method: 'GET', url: '/api/ntrip-accounts', headers: user.headers });
    expect(list.json().items).toHaveLength(1);
  });
});
