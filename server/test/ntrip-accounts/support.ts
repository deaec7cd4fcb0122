import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '../../src/db/client.ts';
import type { TestContext, TestUser } from '../support/test-app.ts';

export async function createNetwork(db: Database, options: { price?: number; status?: string } = {}) {
  const slug = `net-${randomBytes(4).toString('hex')}`;
  const row = await db
    .insertInto('networks')
    .values({
      slug,
      name: `Network ${slug}`,
      token_price_per_day: options.price ?? 10,
      status: (options.status ?? 'active') as 'active',
    })
    .returning(['id', 'slug'])
    .executeTakeFirstOrThrow();
  return row;
}

export async function createStation(db: Database, networkId: string, mountpoint: string) {
  await db
    .insertInto('stations')
    .values({
      network_id: networkId,
      mountpoint,
      identifier: `${mountpoint} place`,
      country: 'NLD',
      latitude: 52,
      longitude: 5,
      updated_at: new Date(),
      status: 'online',
    })
    .execute();
}

export async function grantTokens(t: TestContext, admin: TestUser, user: TestUser, tokenAmount: number) {
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/admin/tokens',
    headers: admin.headers,
    payload: { userId: user.userId, tokenAmount, reason: 'Test grant' },
  });
  if (res.statusCode !== 200) throw new Error(`tokens not granted: ${res.statusCode} ${res.body}`);
}

export async function balanceOf(t: TestContext, user: TestUser): Promise<number> {
  const res = await t.app.inject({ method: 'GET', url: '/api/subscriptions', headers: user.headers });
  return (res.json() as { tokenAmount: number }).tokenAmount;
}

export async function createAccount(t: TestContext, user: TestUser, label = 'Rover 1') {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/ntrip-accounts',
    headers: user.headers,
    payload: { label },
  });
  if (res.statusCode !== 201) throw new Error(`account not created: ${res.statusCode} ${res.body}`);
  return res.json() as { account: { id: string; username: string }; password: string };
}

export function activate(t: TestContext, user: TestUser, accountId: string, feedNetworkId: string, days = 1) {
  return t.app.inject({
    method: 'POST',
    url: '/api/tokens',
    headers: user.headers,
    payload: { accountId, feedNetworkId, days },
  });
}

export async function grantRows(db: Database, accountId: string) {
  const r = await sql<{ id: string; valid_from: Date; valid_until: Date; ended_at: Date | null; source: string }>`
    SELECT id::text AS id, valid_from, valid_until, ended_at, source FROM access_grants
    WHERE account_id = ${accountId} ORDER BY valid_from`.execute(db);
  return r.rows;
}

export async function ledgerRows(db: Database, userId: string) {
  const r = await sql<{ kind: string; delta: number; balance_after: number }>`
    SELECT kind, delta, balance_after FROM token_ledger WHERE user_id = ${userId} ORDER BY id`.execute(db);
  return r.rows;
}
