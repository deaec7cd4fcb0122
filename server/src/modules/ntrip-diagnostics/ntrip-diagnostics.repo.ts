import { type Selectable, sql } from 'kysely';
import type { Database } from '../../db/client.ts';
import type { DB } from '../../db/schema.ts';

/**
 * Reads of the caster's refused-attempts logs (ntrip_refusals, ntrip_login_failures; migration
 * 202611241000_ntrip_refusals.sql, written by the ntrip module) and of the account owner for authorisation.
 */

/** A row of ntrip_refusals as read here: every column but the account, the id as text. */
export type RefusalRow = Omit<Selectable<DB['ntrip_refusals']>, 'id' | 'account_id'> & { id: string };

/** A row of ntrip_login_failures, the id as text. */
export type LoginFailureRow = Omit<Selectable<DB['ntrip_login_failures']>, 'id'> & { id: string };

type Account = Selectable<DB['ntrip_accounts']>;

/** The owner of an account; `is_member` is computed (EXISTS), not a column. */
type AccountOwner = Pick<Account, 'owner_user_id' | 'organization_id'> & { is_member: boolean };

export type NtripDiagnosticsRepo = ReturnType<typeof createNtripDiagnosticsRepo>;

export function createNtripDiagnosticsRepo(db: Database) {
  return {
    /**
     * The owner of a live (not deleted) account, its organisation if it is one's, and whether `userId` is a member
     * of that organisation.
     */
    async accountOwner(
      accountId: string,
      userId = '00000000-0000-0000-0000-000000000000',
    ): Promise<AccountOwner | undefined> {
      const r = await sql<AccountOwner>`
        SELECT a.owner_user_id::text AS owner_user_id, a.organization_id::text AS organization_id,
          EXISTS (SELECT 1 FROM organization_members m
            WHERE m.organization_id = a.organization_id AND m.user_id = ${userId}) AS is_member
        FROM ntrip_accounts a
        WHERE a.id = ${accountId} AND a.deleted_at IS NULL`.execute(db);
      return r.rows[0];
    },

    /** Username and label of live and deleted accounts, for the admin's list of live sessions. */
    async accountNames(accountIds: string[]): Promise<Map<string, Pick<Account, 'username' | 'label'>>> {
      if (accountIds.length === 0) return new Map();
      const r = await sql<Pick<Account, 'id' | 'username' | 'label'>>`
        SELECT id::text AS id, username, label FROM ntrip_accounts
        WHERE id::text = ANY(${sql.val(accountIds)}::text[])`.execute(db);
      return new Map(r.rows.map((row) => [row.id, { username: row.username, label: row.label }]));
    },

    async refusals(accountId: string, since: Date, limit: number): Promise<RefusalRow[]> {
      const r = await sql<RefusalRow>`
        SELECT id::text AS id, reason, minute, count, first_at, last_at, mountpoint, remote_address, user_agent,
          ntrip_version, tls, detail
        FROM ntrip_refusals WHERE account_id = ${accountId} AND last_at >= ${since}
        ORDER BY last_at DESC, id DESC LIMIT ${limit}`.execute(db);
      return r.rows;
    },

    async loginFailures(limit: number, offset: number): Promise<{ rows: LoginFailureRow[]; total: number }> {
      const rows = await sql<LoginFailureRow>`
        SELECT id::text AS id, reason, minute, count, first_at, last_at, remote_address, usernames, mountpoint,
          user_agent, ntrip_version, tls
        FROM ntrip_login_failures ORDER BY last_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`.execute(db);
      // A count is computed, not a column.
      const total = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ntrip_login_failures`.execute(db);
      return { rows: rows.rows, total: Number(total.rows[0]?.n ?? 0) };
    },
  };
}
