import { type Selectable, sql } from 'kysely';
import type { Database } from '../../db/client.ts';
import type { DB } from '../../db/schema.ts';
import type { NtripLoginFailuresTable, NtripRefusalsTable } from './ntrip-refusals.tables.ts';

/** SQL of the caster's refused-attempts log (migration 202611241000_ntrip_refusals.sql): upserts per minute. */

/** One (account, reason, minute) of refused logins to add to its row, as the table keeps it; any detail object. */
export type RefusalUpsert = Omit<Selectable<NtripRefusalsTable>, 'id' | 'detail'> & { detail: object };
/** One (address, reason, minute) of failed logins to add to its row, as the table keeps it. */
export type LoginFailureUpsert = Omit<Selectable<NtripLoginFailuresTable>, 'id'>;

/** How many of the names tried from one address the admin log keeps per minute. */
const SAMPLE_NAMES = 5;

export type NtripRefusalsRepo = ReturnType<typeof createNtripRefusalsRepo>;

export function createNtripRefusalsRepo(db: Database) {
  return {
    /** Live accounts by lower-cased username. */
    async accountIdsByUsername(usernames: string[]): Promise<Map<string, string>> {
      if (usernames.length === 0) return new Map();
      const r = await sql<Pick<Selectable<DB['ntrip_accounts']>, 'id' | 'username'>>`
        SELECT id::text AS id, lower(username) AS username FROM ntrip_accounts
        WHERE lower(username) = ANY(${sql.val(usernames)}::text[]) AND deleted_at IS NULL`.execute(db);
      return new Map(r.rows.map((row) => [row.username, row.id]));
    },

    /** Adds each row's count to its (account, reason, minute); the last attempt's columns replace the stored ones. */
    async upsertRefusals(rows: RefusalUpsert[]): Promise<void> {
      if (rows.length === 0) return;
      await sql`
        INSERT INTO ntrip_refusals AS r (account_id, reason, minute, count, first_at, last_at, mountpoint,
          remote_address, user_agent, ntrip_version, tls, detail)
        SELECT x.account_id, x.reason, x.minute, x.count, x.first_at, x.last_at, x.mountpoint, x.remote_address,
          x.user_agent, x.ntrip_version, x.tls, x.detail
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(account_id uuid, reason text, minute timestamptz,
          count integer, first_at timestamptz, last_at timestamptz, mountpoint text, remote_address text,
          user_agent text, ntrip_version smallint, tls boolean, detail jsonb)
        JOIN ntrip_accounts a ON a.id = x.account_id
        ON CONFLICT (account_id, reason, minute) DO UPDATE SET
          count = r.count + excluded.count,
          first_at = least(r.first_at, excluded.first_at),
          last_at = greatest(r.last_at, excluded.last_at),
          mountpoint = excluded.mountpoint,
          remote_address = excluded.remote_address,
          user_agent = excluded.user_agent,
          ntrip_version = excluded.ntrip_version,
          tls = excluded.tls,
          detail = excluded.detail`.execute(db);
    },

    async upsertLoginFailures(rows: LoginFailureUpsert[]): Promise<void> {
      if (rows.length === 0) return;
      await sql`
        INSERT INTO ntrip_login_failures AS f (remote_address, reason, minute, count, first_at, last_at, usernames,
          mountpoint, user_agent, ntrip_version, tls)
        SELECT x.remote_address, x.reason, x.minute, x.count, x.first_at, x.last_at,
          ARRAY(SELECT jsonb_array_elements_text(x.usernames)), x.mountpoint, x.user_agent, x.ntrip_version, x.tls
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(remote_address text, reason text,
          minute timestamptz, count integer, first_at timestamptz, last_at timestamptz, usernames jsonb,
          mountpoint text, user_agent text, ntrip_version smallint, tls boolean)
        ON CONFLICT (remote_address, reason, minute) DO UPDATE SET
          count = f.count + excluded.count,
          first_at = least(f.first_at, excluded.first_at),
          last_at = greatest(f.last_at, excluded.last_at),
          usernames = ARRAY(
            SELECT DISTINCT ON (n.name) n.name FROM unnest(f.usernames || excluded.usernames) AS n(name)
            LIMIT ${SAMPLE_NAMES}),
          mountpoint = excluded.mountpoint,
          user_agent = excluded.user_agent,
          ntrip_version = excluded.ntrip_version,
          tls = excluded.tls`.execute(db);
    },

    /** Drops entries of both logs last seen before `before`. */
    async prune(before: Date): Promise<void> {
      await sql`DELETE FROM ntrip_refusals WHERE last_at < ${before}`.execute(db);
      await sql`DELETE FROM ntrip_login_failures WHERE last_at < ${before}`.execute(db);
    },
  };
}
