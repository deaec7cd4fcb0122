import { sql } from 'kysely';
import type { Database } from '../../src/db/client.ts';
import { createProduct } from '../support/factories.ts';
import type { TestContext, TestUser } from '../support/test-app.ts';

export interface GrantRow {
  network_id: string;
  owner_user_id: string;
  valid_until: Date;
  ended_at: Date | null;
  source: string;
}

export async function grantsOf(db: Database, subscriptionId: string): Promise<GrantRow[]> {
  const result = await sql<GrantRow>`
    SELECT network_id::text AS network_id, owner_user_id::text AS owner_user_id, valid_until, ended_at, source
    FROM access_grants WHERE reference_id::text = ${subscriptionId} ORDER BY network_id`.execute(db);
  return result.rows;
}

export const openGrants = (grants: GrantRow[]) => grants.filter((g) => g.ended_at === null);

export async function standardProducts(t: TestContext, admin: TestUser, networkIds: string[]) {
  const monthly = await createProduct(t, admin, {
    kind: 'subscription',
    name: 'RTK Monthly',
    pricingTable: 'RTK',
    amount: 4900,
    currency: 'EUR',
    interval: 'MONTHLY',
    networkIds,
    bestChoice: true,
    attributes: ['RTK'],
  });
  const tokens = await createProduct(t, admin, {
    kind: 'token',
    name: '100 Tokens',
    pricingTable: 'Tokens',
    amount: 1000,
    currency: 'EUR',
    creditsAmount: 100,
  });
  return { monthly, tokens };
}

export async function startCheckout(t: TestContext, user: TestUser, kind: 'subscription' | 'product', priceId: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/checkout/${kind}?priceId=${encodeURIComponent(priceId)}`,
    headers: user.headers,
  });
  if (res.statusCode !== 200) throw new Error(`checkout not created: ${res.statusCode} ${res.body}`);
  const body = res.json() as { url: string; checkoutSessionId: string };
  return { ...body, sandboxId: await sandboxIdOf(t, body.checkoutSessionId) };
}

/** The sandbox's session behind one of ours (the buy button's answer names only our checkout page). */
export async function sandboxIdOf(t: TestContext, checkoutSessionId: string): Promise<string> {
  const row = await t.db
    .selectFrom('checkout_sessions')
    .select('provider_session_id')
    .where('id', '=', checkoutSessionId)
    .executeTakeFirstOrThrow();
  return row.provider_session_id ?? '';
}

/** Pays on the sandbox's own checkout page, as the browser's form post would. */
export async function payOnSandbox(t: TestContext, sandboxId: string, card: string) {
  return t.app.inject({
    method: 'POST',
    url: `/api/sandbox/checkout/${sandboxId}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ card, expiry: '12/34', cvc: '123' }).toString(),
  });
}
