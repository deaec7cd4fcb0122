import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from './support/database.ts';
import { buildTestApp, type TestContext, type TestUser } from './support/test-app.ts';

/**
 * The API's budgets where a shared address is normal (issue 25, ADR 0015): carrier-grade NAT, an office or a
 * fleet's router put many customers behind one address, so a signed-in customer is counted by account, never
 * by the address, and what anonymous callers (and failed tokens) do from that address cannot lock them out.
 */
const NAT = '198.51.100.77';
const ANONYMOUS_PER_MINUTE = 5;
const SIGNED_IN_PER_MINUTE = 8;

describe(`API rate limits behind a shared address on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await buildTestApp({
      anonymousRequestsPerMinute: ANONYMOUS_PER_MINUTE,
      signedInRequestsPerMinute: SIGNED_IN_PER_MINUTE,
    });
  });
  afterAll(() => t?.close());

  const call = (url: string, from: string, user?: TestUser | { headers: { authorization: string } }) =>
    t.app.inject({ method: 'GET', url, remoteAddress: from, headers: user?.headers ?? {} });

  it('serves signed-in customers from an address whose anonymous budget a flood has spent, on public routes too', async () => {
    const customers = [await t.buildUser(), await t.buildUser(), await t.buildUser()];
    for (let i = 0; i < ANONYMOUS_PER_MINUTE; i++) expect((await call('/api/meta', NAT)).statusCode).toBe(200);
    const limited = await call('/api/meta', NAT);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('rate_limited');

    for (const customer of customers) {
      // What the SPA asks right after a login, and public lists it asks with the customer's token.
      expect((await call('/api/user', NAT, customer)).statusCode).toBe(200);
      expect((await call('/api/meta', NAT, customer)).statusCode).toBe(200);
      expect((await call('/api/networks', NAT, customer)).statusCode).toBe(200);
      expect((await call('/api/stations?view=compact', NAT, customer)).statusCode).toBe(200);
    }
    // The anonymous callers behind the address are still limited.
    expect((await call('/api/networks', NAT)).statusCode).toBe(429);
  });

  it('counts missing and failed tokens against their address: a token flood ends in 429, not in endless 401s', async () => {
    const from = '198.51.100.78';
    const statuses: number[] = [];
    for (let i = 0; i < ANONYMOUS_PER_MINUTE + 2; i++) {
      statuses.push(
        (await call('/api/user', from, i % 2 ? { headers: { authorization: 'Bearer guessed' } } : undefined))
          .statusCode,
      );
    }
    expect(statuses).toEqual([...Array<number>(ANONYMOUS_PER_MINUTE).fill(401), 429, 429]);
    const customer = await t.buildUser();
    expect((await call('/api/user', from, customer)).statusCode).toBe(200);
  });

  it('gives every signed-in customer a budget of their own, which others at the same address cannot spend', async () => {
    const heavy = await t.buildUser();
    const other = await t.buildUser();
    const from = '198.51.100.79';
    for (let i = 0; i < SIGNED_IN_PER_MINUTE; i++) expect((await call('/api/user', from, heavy)).statusCode).toBe(200);
    expect((await call('/api/user', from, heavy)).statusCode).toBe(429);
    // The same account from elsewhere is the same budget; another account at the same address has its own.
    expect((await call('/api/user', '203.0.113.80', heavy)).statusCode).toBe(429);
    expect((await call('/api/user', from, other)).statusCode).toBe(200);
    // Nor did the heavy customer spend the address's anonymous budget.
    expect((await call('/api/meta', from)).statusCode).toBe(200);
  });

  it("answers payment-provider webhooks from an address under a budget of their own, apart from the address's anonymous one", async () => {
    const from = '198.51.100.81';
    const webhook = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/stripe/webhook',
        remoteAddress: from,
        headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=forged' },
        payload: '{}',
      });
    for (let i = 0; i < ANONYMOUS_PER_MINUTE * 3; i++) expect((await webhook()).statusCode).not.toBe(429);
    for (let i = 0; i < ANONYMOUS_PER_MINUTE; i++) expect((await call('/api/meta', from)).statusCode).toBe(200);
    expect((await call('/api/meta', from)).statusCode).toBe(429);
    expect((await webhook()).statusCode).not.toBe(429);
  });
});
