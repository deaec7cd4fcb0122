import { sql } from 'kysely';
import type { Database } from '../../src/db/client.ts';

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
