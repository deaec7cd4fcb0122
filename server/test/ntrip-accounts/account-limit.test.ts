import { MAX_NTRIP_ACCOUNTS_PER_USER } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../support/database.ts';
import { buildTestApp, type TestContext } from '../support/test-app.ts';

describe(`NTRIP account limit under concurrency on ${testDatabaseKind()}`, { timeout: 120_000 }, () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  // Issue 16: 150 concurrent creations made 87 accounts against the limit of 50.
  it(`150 concurrent creations for one user make exactly ${MAX_NTRIP_ACCOUNTS_PER_USER} accounts`, async () => {
    const user = await t.buildUser();
    const results = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/ntrip-accounts',
          headers: user.headers,
          payload: { label: `Rover ${i}` },
        }),
      ),
    );

    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(MAX_NTRIP_ACCOUNTS_PER_USER);
    const refused = results.filter((r) => r.statusCode !== 201);
    expect(refused).toHaveLength(150 - MAX_NTRIP_ACCOUNTS_PER_USER);
    for (const r of refused) {
      expect(r.statusCode).toBe(409);
      expect(r.json()).toMatchObject({ code: 'account_limit_reached', message: expect.any(String) });
    }
    const rows = await t.db
      .selectFrom('ntrip_accounts')
      .select('id')
      .where('owner_user_id', '=', user.userId)
      .where('deleted_at', 'is', null)
      .execute();
    expect(rows).toHaveLength(MAX_NTRIP_ACCOUNTS_PER_USER);
  });
});
