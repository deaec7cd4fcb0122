import { MAX_TOKEN_BALANCE } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../support/database.ts';
import { buildTestApp, type TestContext, type TestUser } from '../support/test-app.ts';

/** Issue 31: a grant past 2,147,483,647 tokens was a 500 (PostgreSQL 22003, integer out of range). */
describe(`the upper bound of token balances on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let admin: TestUser;
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.buildAdmin();
  });
  afterAll(() => t.close());

  const grant = (userId: string, tokenAmount: number) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/admin/tokens',
      headers: admin.headers,
      payload: { userId, tokenAmount, reason: 'Support case' },
    });
  const seedBalance = (userId: string, balance: number) =>
    t.db.insertInto('token_balances').values({ user_id: userId, balance }).execute();
  const balanceOf = async (userId: string) =>
    (await t.db.selectFrom('token_balances').select('balance').where('user_id', '=', userId).executeTakeFirst())
      ?.balance;
  const ledgerOf = (userId: string) =>
    t.db.selectFrom('token_ledger').select('id').where('user_id', '=', userId).execute();

  it('refuses a grant that would take a balance past the bound with 400 naming tokenAmount, changing nothing', async () => {
    expect(MAX_TOKEN_BALANCE).toBe(1_000_000_000);
    const user = await t.buildUser();
    await seedBalance(user.userId, MAX_TOKEN_BALANCE - 5);
    const past = await grant(user.userId, 10);
    expect(past.statusCode).toBe(400);
    expect(past.json()).toEqual({
      code: 'out_of_range',
      field: 'tokenAmount',
      message: 'A token balance may hold at most 1,000,000,000 tokens; this would make it 1,000,000,005.',
    });
    expect(await balanceOf(user.userId)).toBe(MAX_TOKEN_BALANCE - 5);
    expect(await ledgerOf(user.userId)).toEqual([]);

    const upTo = await grant(user.userId, 5);
    expect(upTo.statusCode).toBe(200);
    expect(upTo.json().tokenAmount).toBe(MAX_TOKEN_BALANCE);
  });

  it('answers 400, not 500, for a grant past what the database column holds', async () => {
    const user = await t.buildUser();
    await seedBalance(user.userId, 2_147_483_640);
    const res = await grant(user.userId, 10_000_000);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'out_of_range', field: 'tokenAmount' });
    // Taking tokens back from such a balance still works.
    expect((await grant(user.userId, -10)).statusCode).toBe(200);
  });
});
