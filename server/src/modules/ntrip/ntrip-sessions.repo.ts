import { type Selectable, sql } from 'kysely';
import type { Database } from '../../db/client.ts';
import type { NtripSessionsTable } from '../../db/schema.ts';

/** Reads of the connection log the caster's usage port writes (ntrip_sessions), for the NTRIP accounts pages. */

/** A logged session as read here: every column but the account, the id (a bigint) as text. */
export type SessionRow = Omit<Selectable<NtripSessionsTable>, 'id' | 'account_id'> & { id: string };

export function createNtripSessionsRepo(db: Database) {
  return {
    /** End of the last logged session per account. */
    async lastSeen(accountIds: string[]): Promise<Map<string, Date>> {
      if (accountIds.length === 0) return new Map();
      const r = await sql<
        Pick<Selectable<NtripSessionsTable>, 'account_id'> & { last: Selectable<NtripSessionsTable>['started_at'] }
      >`
        SELECT account_id::text AS account_id, max(coalesce(ended_at, started_at)) AS last FROM ntrip_sessions
        WHERE account_id::text = ANY(${accountIds}::text[]) GROUP BY account_id`.execute(db);
      return new Map(r.rows.map((row) => [row.account_id, new Date(row.last)]));
    },

    async sessions(accountId: string, limit: number, offset: number): Promise<SessionRow[]> {
      const r = await sql<SessionRow>`
        SELECT id::text AS id, mountpoint, remote_address, started_at, ended_at, bytes_sent, end_reason,
          last_gga_lat, last_gga_lon, user_agent, served_station, distance_km, fixed_share, float_share, rtcm_profile
        FROM ntrip_sessions WHERE account_id = ${accountId}
        ORDER BY started_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`.execute(db);
      return r.rows;
    },

    async countSessions(accountId: string): Promise<number> {
      // A count is computed, not a column.
      const r = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM ntrip_sessions WHERE account_id = ${accountId}`.execute(db);
      return Number(r.rows[0]?.n ?? 0);
    },
  };
}
