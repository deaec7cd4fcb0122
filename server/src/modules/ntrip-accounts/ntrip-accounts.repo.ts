import { sql } from 'kysely';
import type { Database } from '../../db/client.ts';

/**
 * SQL of the NTRIP accounts module on the ntrip module's tables (ntrip_accounts, access_grants, ntrip_sessions,
 * migration 202611231400_ntrip.sql) and read-only on the catalogue's networks and stations. Plain SQL on the
 * documented columns (docs/data-model.md), so this module does not depend on the ntrip module's row types.
 * Every method takes an optional transaction.
 */

export interface AccountRow {
  id: string;
  owner_user_id: string;
  username: string;
  label: string;
  enabled: boolean;
  max_connections: number;
  created_at: Date;
  updated_at: Date;
}

export interface AdminAccountRow extends AccountRow {
  owner_email: string | null;
}

export interface GrantRow {
  id: string;
  account_id: string | null;
  /** For an all-accounts grant: the user whose accounts it covers (the owner, or a member of its organisation). */
  covers_user_id: string;
  network_id: string;
  network_slug: string;
  network_name: string;
  valid_from: Date;
  valid_until: Date;
  source: 'subscription' | 'tokens' | 'manual';
}

export interface NetworkRow {
  id: string;
  slug: string;
  name: string;
  status: 'active' | 'maintenance' | 'retired';
  token_price_per_day: number;
}

export interface SessionRow {
  id: string;
  mountpoint: string;
  remote_address: string | null;
  started_at: Date;
  ended_at: Date | null;
  bytes_sent: number | string;
  end_reason: string | null;
  last_gga_lat: number | null;
  last_gga_lon: number | null;
  user_agent: string | null;
  served_station: string | null;
  distance_km: number | null;
  fixed_share: number | null;
  float_share: number | null;
}

export interface StationRow {
  network_id: string;
  mountpoint: string;
  identifier: string;
  status: 'online' | 'offline';
  latitude: number;
  longitude: number;
}

const ACCOUNT_COLUMNS = sql`a.id::text AS id, a.owner_user_id::text AS owner_user_id, a.username, a.label, a.enabled,
  a.max_connections, a.created_at, a.updated_at`;

export type NtripAccountsRepo = ReturnType<typeof createNtripAccountsRepo>;

export function createNtripAccountsRepo(db: Database) {
  return {
    transaction<T>(work: (trx: Database) => Promise<T>): Promise<T> {
      return db.transaction().execute(work);
    },

    async listByOwner(ownerUserId: string, trx: Database = db): Promise<AccountRow[]> {
      const r = await sql<AccountRow>`
        SELECT ${ACCOUNT_COLUMNS} FROM ntrip_accounts a
        WHERE a.owner_user_id = ${ownerUserId} AND a.deleted_at IS NULL
        ORDER BY a.created_at, a.id`.execute(trx);
      return r.rows;
    },

    /** Holds the owner's users row until the transaction ends: one owner's creations count one after the other. */
    async lockOwner(ownerUserId: string, trx: Database): Promise<void> {
      await sql`SELECT id FROM users WHERE id = ${ownerUserId} FOR UPDATE`.execute(trx);
    },

    /** Locks the user's row like `lockOwner`; false when there is no such user. */
    async lockUser(userId: string, trx: Database): Promise<boolean> {
      const r = await sql`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`.execute(trx);
      return r.rows.length > 0;
    },

    async countByOwner(ownerUserId: string, trx: Database = db): Promise<number> {
      const r = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM ntrip_accounts WHERE owner_user_id = ${ownerUserId} AND deleted_at IS NULL`.execute(
        trx,
      );
      return Number(r.rows[0]?.n ?? 0);
    },

    /** A live (not deleted) account; `lock` takes its row lock until the transaction ends. */
    async find(id: string, trx: Database = db, lock = false): Promise<AccountRow | undefined> {
      const r = await sql<AccountRow>`
        SELECT ${ACCOUNT_COLUMNS} FROM ntrip_accounts a
        WHERE a.id = ${id} AND a.deleted_at IS NULL ${lock ? sql`FOR UPDATE` : sql``}`.execute(trx);
      return r.rows[0];
    },

    async usernameExists(username: string, trx: Database = db): Promise<boolean> {
      const r = await sql`SELECT 1 FROM ntrip_accounts WHERE lower(username) = lower(${username})`.execute(trx);
      return r.rows.length > 0;
    },

    /**
     * Undefined when the username is taken: a unique violation would abort the caller's transaction, so a taken
     * name is answered by ON CONFLICT and the caller tries another.
     */
    async insert(
      values: { ownerUserId: string; username: string; passwordHash: string; label: string; maxConnections: number },
      trx: Database = db,
    ): Promise<AccountRow | undefined> {
      const r = await sql<AccountRow>`
        INSERT INTO ntrip_accounts AS a (owner_user_id, username, password_hash, label, enabled, max_connections)
        VALUES (${values.ownerUserId}, ${values.username}, ${values.passwordHash}, ${values.label}, true,
          ${values.maxConnections})
        ON CONFLICT DO NOTHING
        RETURNING ${ACCOUNT_COLUMNS}`.execute(trx);
      return r.rows[0];
    },

    async update(
      id: string,
      changes: { label?: string; enabled?: boolean; passwordHash?: string; maxConnections?: number },
      now: Date,
      trx: Database = db,
    ): Promise<AccountRow | undefined> {
      const sets = [sql`updated_at = ${now}`];
      if (changes.label !== undefined) sets.push(sql`label = ${changes.label}`);
      if (changes.enabled !== undefined) sets.push(sql`enabled = ${changes.enabled}`);
      if (changes.passwordHash !== undefined) sets.push(sql`password_hash = ${changes.passwordHash}`);
      if (changes.maxConnections !== undefined) sets.push(sql`max_connections = ${changes.maxConnections}`);
      const r = await sql<AccountRow>`
        UPDATE ntrip_accounts AS a SET ${sql.join(sets)}
        WHERE a.id = ${id} AND a.deleted_at IS NULL
        RETURNING ${ACCOUNT_COLUMNS}`.execute(trx);
      return r.rows[0];
    },

    async softDelete(id: string, now: Date, trx: Database = db): Promise<boolean> {
      const r = await sql`
        UPDATE ntrip_accounts SET deleted_at = ${now}, enabled = false, updated_at = ${now}
        WHERE id = ${id} AND deleted_at IS NULL`.execute(trx);
      return Number(r.numAffectedRows ?? 0) > 0;
    },

    /** Ends every open grant of this one account (grants of all the owner's accounts stay). */
    async endGrantsOfAccount(accountId: string, now: Date, trx: Database = db): Promise<number> {
      const r = await sql`
        UPDATE access_grants SET ended_at = ${now}
        WHERE account_id = ${accountId} AND ended_at IS NULL`.execute(trx);
      return Number(r.numAffectedRows ?? 0);
    },

    /**
     * Grants not ended and not yet expired that apply to these accounts: their own, the owners' grants for every
     * account (account_id NULL, e.g. a subscription), and those of the owners' organisations (one row per member
     * it covers).
     */
    async openGrants(accounts: AccountRow[], now: Date, trx: Database = db): Promise<GrantRow[]> {
      if (accounts.length === 0) return [];
      const ids = accounts.map((a) => a.id);
      const owners = [...new Set(accounts.map((a) => a.owner_user_id))];
      const r = await sql<GrantRow>`
        SELECT g.id::text AS id, g.account_id::text AS account_id,
          coalesce(m.user_id, g.owner_user_id)::text AS covers_user_id,
          g.network_id::text AS network_id, n.slug AS network_slug, n.name AS network_name,
          g.valid_from, g.valid_until, g.source
        FROM access_grants g JOIN networks n ON n.id = g.network_id
          LEFT JOIN organization_members m
            ON m.organization_id = g.organization_id AND g.account_id IS NULL AND m.user_id::text = ANY(${owners}::text[])
        WHERE g.ended_at IS NULL AND g.valid_until > ${now}
          AND (g.account_id::text = ANY(${ids}::text[])
            OR (g.account_id IS NULL AND g.organization_id IS NULL AND g.owner_user_id::text = ANY(${owners}::text[]))
            OR m.user_id IS NOT NULL)
        ORDER BY g.valid_until, g.id`.execute(trx);
      return r.rows;
    },

    /**
     * End of this account's own access to this network (token activations and support grants), if it ends after
     * `now`. Grants of all the owner's accounts (subscriptions) are left out: they renew, and days stacked behind
     * them would wait for an end that may not come.
     */
    async activationEnd(accountId: string, networkId: string, now: Date, trx: Database = db): Promise<Date | null> {
      const r = await sql<{ until: Date | null }>`
        SELECT max(valid_until) AS until FROM access_grants
        WHERE account_id = ${accountId} AND network_id = ${networkId} AND source IN ('tokens', 'manual')
          AND ended_at IS NULL AND valid_until > ${now}`.execute(trx);
      const until = r.rows[0]?.until;
      return until ? new Date(until) : null;
    },

    async insertGrant(
      values: {
        id: string;
        accountId: string;
        ownerUserId: string;
        networkId: string;
        validFrom: Date;
        validUntil: Date;
        source: 'tokens' | 'manual';
        referenceId: string;
      },
      trx: Database = db,
    ): Promise<void> {
      await sql`
        INSERT INTO access_grants (id, account_id, owner_user_id, network_id, valid_from, valid_until, source, reference_id)
        VALUES (${values.id}, ${values.accountId}, ${values.ownerUserId}, ${values.networkId}, ${values.validFrom},
          ${values.validUntil}, ${values.source}, ${values.referenceId})`.execute(trx);
    },

    async network(id: string, trx: Database = db): Promise<NetworkRow | undefined> {
      return trx
        .selectFrom('networks')
        .select(['id', 'slug', 'name', 'status', 'token_price_per_day'])
        .where('id', '=', id)
        .executeTakeFirst();
    },

    async stationsOf(networkIds: string[], trx: Database = db): Promise<StationRow[]> {
      if (networkIds.length === 0) return [];
      return trx
        .selectFrom('stations')
        .select(['network_id', 'mountpoint', 'identifier', 'status', 'latitude', 'longitude'])
        .where('network_id', 'in', networkIds)
        .orderBy('mountpoint')
        .execute();
    },

    /** End of the last logged session per account. */
    async lastSeen(accountIds: string[], trx: Database = db): Promise<Map<string, Date>> {
      if (accountIds.length === 0) return new Map();
      const r = await sql<{ account_id: string; last: Date }>`
        SELECT account_id::text AS account_id, max(coalesce(ended_at, started_at)) AS last FROM ntrip_sessions
        WHERE account_id::text = ANY(${accountIds}::text[]) GROUP BY account_id`.execute(trx);
      return new Map(r.rows.map((row) => [row.account_id, new Date(row.last)]));
    },

    async sessions(accountId: string, limit: number, offset: number, trx: Database = db): Promise<SessionRow[]> {
      const r = await sql<SessionRow>`
        SELECT id::text AS id, mountpoint, remote_address, started_at, ended_at, bytes_sent, end_reason,
          last_gga_lat, last_gga_lon, user_agent, served_station, distance_km, fixed_share, float_share
        FROM ntrip_sessions WHERE account_id = ${accountId}
        ORDER BY started_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`.execute(trx);
      return r.rows;
    },

    async countSessions(accountId: string, trx: Database = db): Promise<number> {
      const r = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM ntrip_sessions WHERE account_id = ${accountId}`.execute(trx);
      return Number(r.rows[0]?.n ?? 0);
    },

    async adminSearch(
      search: string | undefined,
      limit: number,
      offset: number,
      trx: Database = db,
    ): Promise<{ rows: AdminAccountRow[]; total: number }> {
      const pattern = search ? `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
      const where = pattern
        ? sql`a.deleted_at IS NULL AND (a.username ILIKE ${pattern} OR a.label ILIKE ${pattern}
            OR u.email ILIKE ${pattern} OR a.id::text = ${search})`
        : sql`a.deleted_at IS NULL`;
      const rows = await sql<AdminAccountRow>`
        SELECT ${ACCOUNT_COLUMNS}, u.email AS owner_email
        FROM ntrip_accounts a JOIN users u ON u.id = a.owner_user_id
        WHERE ${where} ORDER BY a.created_at DESC, a.id LIMIT ${limit} OFFSET ${offset}`.execute(trx);
      const total = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM ntrip_accounts a JOIN users u ON u.id = a.owner_user_id
        WHERE ${where}`.execute(trx);
      return { rows: rows.rows, total: Number(total.rows[0]?.n ?? 0) };
    },

    async findWithOwner(id: string, trx: Database = db): Promise<AdminAccountRow | undefined> {
      const r = await sql<AdminAccountRow>`
        SELECT ${ACCOUNT_COLUMNS}, u.email AS owner_email
        FROM ntrip_accounts a JOIN users u ON u.id = a.owner_user_id
        WHERE a.id = ${id} AND a.deleted_at IS NULL`.execute(trx);
      return r.rows[0];
    },
  };
}
