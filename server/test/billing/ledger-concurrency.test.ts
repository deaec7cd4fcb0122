import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../support/database.ts';
import { createProduct } from '../support/factories.ts';
import { buildTestApp, type TestContext, type TestUser } from '../support/test-app.ts';
import { payOnSandbox, startCheckout } from './support.ts';

describe(`token ledger under concurrency on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let admin: TestUser;
  let priceId: string;

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.buildAdmin();
    priceId = (
      await createProduct(t, admin, {
        kind: 'token',
        name: '100 Tokens',
        pricingTable: 'Tokens',
        amount: 1000,
        currency: 'EUR',
        creditsAmount: 100,
      })
    ).priceId;
  });
  afterAll(() => t.close());

  async function ledgerOf(userId: string) {
    return t.db.selectFrom('token_ledger').selectAll().where('user_id', '=', userId).orderBy('id').execute();
  }

  it('50 concurrent purchase completions, their duplicate syncs, grants and take-backs leave a consistent ledger', async () => {
    const user = await t.buildUser();
    const sessions = [];
    for (let i = 0; i < 50; i++) sessions.push(await startCheckout(t, user, 'product', priceId));

    const work: Promise<{ kind: string; status: number }>[] = [];
    for (const s of sessions) {
      work.push(payOnSandbox(t, s.sandboxId, '4242424242424242').then((r) => ({ kind: 'pay', status: r.statusCode })));
      // The return page polling at the same time must not credit a second time.
      work.push(
        t.app
          .inject({
            method: 'GET',
            url: `/api/checkout?checkoutSessionId=${s.checkoutSessionId}`,
            headers: user.headers,
          })
          .then((r) => ({ kind: 'sync', status: r.statusCode })),
      );
    }
    for (let i = 0; i < 50; i++) {
      work.push(
        t.app
          .inject({
            method: 'PUT',
            url: '/api/admin/tokens',
            headers: admin.headers,
            payload: { userId: user.userId, tokenAmount: 5, reason: 'Support case' },
          })
          .then((r) => ({ kind: 'grant', status: r.statusCode })),
      );
    }
    for (let i = 0; i < 10; i++) {
      work.push(
        t.app
          .inject({
            method: 'PUT',
            url: '/api/admin/tokens',
            headers: admin.headers,
            payload: { userId: user.userId, tokenAmount: -400, reason: 'Support case' },
          })
          .then((r) => ({ kind: 'take', status: r.statusCode })),
      );
    }
    const results = await Promise.all(work);

    expect(results.filter((r) => r.kind === 'pay').every((r) => r.status === 303)).toBe(true);
    expect(results.filter((r) => r.kind === 'sync').every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r.kind === 'grant').every((r) => r.status === 200)).toBe(true);
    const takes = results.filter((r) => r.kind === 'take');
    expect(takes.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    const taken = takes.filter((r) => r.status === 200).length;

    const ledger = await ledgerOf(user.userId);
    expect(ledger.filter((e) => e.kind === 'purchase')).toHaveLength(50);
    expect(ledger.filter((e) => e.kind === 'admin_grant' && e.delta === 5)).toHaveLength(50);
    const expected = 50 * 100 + 50 * 5 - taken * 400;
    const sum = ledger.reduce((acc, e) => acc + e.delta, 0);
    expect(sum).toBe(expected);
    // Each entry's balance_after is the running sum: no two writers saw the same balance.
    let running = 0;
    for (const e of ledger) {
      running += e.delta;
      expect(e.balance_after).toBe(running);
      expect(e.balance_after).toBeGreaterThanOrEqual(0);
    }
    const balance = await t.db
      .selectFrom('token_balances')
      .select('balance')
      .where('user_id', '=', user.userId)
      .executeTakeFirstOrThrow();
    expect(balance.balance).toBe(expected);
    const api = await t.app.inject({ method: 'GET', url: '/api/subscriptions', headers: user.headers });
    expect(api.json().tokenAmount).toBe(expected);
    const completed = await t.db
      .selectFrom('checkout_sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', user.userId)
      .where('status', '=', 'complete')
      .executeTakeFirstOrThrow();
    expect(Number(completed.n)).toBe(50);
  });

  it('never takes a balance below zero', async () => {
    const user = await t.buildUser();
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/tokens',
      headers: admin.headers,
      payload: { userId: user.userId, tokenAmount: -1, reason: 'Support case' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('insufficient_tokens');
    expect(await ledgerOf(user.userId)).toHaveLength(0);
  });

  it('is append-only: an entry cannot be edited', async () => {
    const user = await t.buildUser();
    await t.app.inject({
      method: 'PUT',
      url: '/api/admin/tokens',
      headers: admin.headers,
      payload: { userId: user.userId, tokenAmount: 7, reason: 'Support case' },
    });
    await expect(sql`UPDATE token_ledger SET delta = 700 WHERE user_id = ${user.userId}`.execute(t.db)).rejects.toThrow(
      /append-only/,
    );
  });
});
