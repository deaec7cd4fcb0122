import { type Insertable, type Selectable, sql } from 'kysely';
import type { Database } from '../../db/client.ts';
import type { DB } from '../../db/schema.ts';
import { createCatalogueRepo } from '../catalogue/index.ts';
import { accessGraceInterval } from '../settings/index.ts';

/**
 * SQL of the ntrip module: its own tables (ntrip_sessions, ntrip_auth_epoch) and the reads the caster's ports
 * decide with (accounts, grants, the catalogue's networks, stations and feeds). The caster is the source of the
 * live status of stations and feeds; it reports it through the catalogue's repo, which owns those columns.
 */

/** A live account by username, with what the login decides on besides its own columns. */
export type AccountForLogin = Pick<
  Selectable<DB['ntrip_accounts']>,
  'id' | 'owner_user_id' | 'password_hash' | 'enabled' | 'max_connections' | 'rtcm_profile' | 'constellations'
> & {
  /** Joined: the owner's users.disabled. */
  owner_disabled: Selectable<DB['users']>['disabled'];
  /** An organisation's account whose user is no longer a member of it (docs/adr/0026); false for a personal one. */
  holder_left: boolean;
};

type Network = Selectable<DB['networks']>;
type Station = Selectable<DB['stations']>;
type Feed = Selectable<DB['feeds']>;

export interface AccessRow extends Pick<Selectable<DB['ntrip_accounts']>, 'max_connections'> {
  account_id: Selectable<DB['ntrip_accounts']>['id'];
  network_id: Network['id'];
  network_slug: Network['slug'];
  /** Computed: the end of the latest covering grant plus the grace period. */
  until: Date;
}

export type SnapshotNetworkRow = Pick<
  Network,
  | 'id'
  | 'slug'
  | 'name'
  | 'operator'
  | 'is_public'
  | 'reference_frame'
  | 'integrity_moved_horizontal_m'
  | 'integrity_moved_vertical_m'
  | 'integrity_good_period_s'
>;

export type SnapshotStationRow = Pick<
  Station,
  | 'mountpoint'
  | 'latitude'
  | 'longitude'
  | 'height_m'
  | 'integrity_override'
  | 'survey_revision'
  | 'identifier'
  | 'format'
  | 'format_details'
  | 'carrier'
  | 'nav_system'
  | 'country'
  | 'receiver'
  | 'antenna'
  | 'bitrate'
> & { network_slug: Network['slug'] };

/** A pull feed: its upstream columns, set for every pull feed (the username and password may be null). */
export type PullFeedRow = Pick<Feed, 'id' | 'upstream_username' | 'upstream_password_enc'> & {
  [K in 'upstream_host' | 'upstream_port' | 'upstream_mountpoint' | 'upstream_ntrip_version']: NonNullable<Feed[K]>;
} & Pick<Station, 'mountpoint'>;

/** A session the caster logged, as the table takes it. */
export type SessionInsert = Insertable<DB['ntrip_sessions']>;

/**
 * The grants that cover account `a`: its own; for a personal account its owner's grants for all their accounts and
 * those of the organisations the owner is a member of (0010); for an organisation's account that organisation's
 * grants for all accounts (0026). The accounts list (ntrip-accounts.repo.ts) says the same.
 */
const COVERS = sql`(g.account_id = a.id
  OR (a.organization_id IS NULL AND g.account_id IS NULL AND g.organization_id IS NULL
    AND g.owner_user_id = a.owner_user_id)
  OR (a.organization_id IS NULL AND g.account_id IS NULL AND g.organization_id IN (
    SELECT m.organization_id FROM organization_members m
    JOIN organizations o ON o.id = m.organization_id AND o.disabled_at IS NULL
    WHERE m.user_id = a.owner_user_id))
  OR (a.organization_id IS NOT NULL AND g.account_id IS NULL AND g.organization_id = a.organization_id))`;

export type NtripRepo = ReturnType<typeof createNtripRepo>;

export function createNtripRepo(db: Database) {
  const catalogue = createCatalogueRepo(db);
  return {
    async authEpoch(): Promise<number> {
      const row = await db.selectFrom('ntrip_auth_epoch').select('epoch').executeTakeFirst();
      return Number(row?.epoch ?? 0);
    },

    /**
     * The live accounts of several logins in one query (a reconnection storm's logins of one event-loop turn), by the
     * username as each login spelled it; names match without regard to case. Deleted accounts do not log in; their
     * usernames stay taken.
     */
    async accountsForLogin(usernames: readonly string[]): Promise<Map<string, AccountForLogin>> {
      if (usernames.length === 0) return new Map();
      const r = await sql<AccountForLogin & { login: string }>`
        SELECT q.login, a.id::text AS id, a.owner_user_id::text AS owner_user_id, a.password_hash, a.enabled,
          u.disabled AS owner_disabled, a.max_connections, a.rtcm_profile, a.constellations,
          (a.organization_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM organization_members m
            WHERE m.organization_id = a.organization_id AND m.user_id = a.owner_user_id)) AS holder_left
        FROM unnest(${sql.val([...usernames])}::text[]) AS q(login)
        JOIN ntrip_accounts a ON lower(a.username) = lower(q.login) AND a.deleted_at IS NULL
        JOIN users u ON u.id = a.owner_user_id`.execute(db);
      return new Map(r.rows.map(({ login, ...account }) => [login, account]));
    },

    /** The network a station mountpoint or a `{SLUG}_NEAR` mountpoint belongs to; retired networks serve nobody. */
    async networkOfMountpoint(
      mountpoint: string,
      nearSuffix: string,
    ): Promise<Pick<Network, 'id' | 'slug' | 'name'> | undefined> {
      const r = await sql<Pick<Network, 'id' | 'slug' | 'name'>>`
        SELECT n.id::text AS id, n.slug, n.name FROM stations s JOIN networks n ON n.id = s.network_id
        WHERE lower(s.mountpoint) = lower(${mountpoint}) AND n.status <> 'retired'
        UNION ALL
        SELECT n.id::text AS id, n.slug, n.name FROM networks n
        WHERE upper(n.slug) || ${nearSuffix} = upper(${mountpoint}) AND n.status <> 'retired'
        LIMIT 1`.execute(db);
      return r.rows[0];
    },

    /**
     * When the account's access to a network last ended before `now` (any grant that covered it: its own, its
     * owner's, its owner's organisations'), or null when it never had any. Tells a refused rover's owner "access
     * ended on …" from "never activated".
     */
    async accessEndedAt(accountId: string, networkId: string, now: Date): Promise<Date | null> {
      // The latest end of the covering grants; max() gives null when there are none.
      const r = await sql<{ ended: Selectable<DB['access_grants']>['valid_until'] | null }>`
        SELECT max(least(g.valid_until, coalesce(g.ended_at, g.valid_until))) AS ended
        FROM ntrip_accounts a
        JOIN access_grants g ON g.network_id = ${networkId} AND g.valid_from <= ${now}
          AND ${COVERS}
        WHERE a.id = ${accountId}`.execute(db);
      const ended = r.rows[0]?.ended;
      return ended ? new Date(ended) : null;
    },

    /**
     * Per account and network, the end of the latest grant that covers the account now: the account's own, its
     * owner's all-accounts grants, and the all-accounts grants of organisations the owner is a member of now. A
     * grant covers until its end (valid_until, or ended_at when it was ended early) plus the grace period setting.
     * Accounts that are deleted or disabled, or whose owner is, get no rows; nor do retired networks.
     */
    async accessOf(accountIds: string[], now: Date): Promise<AccessRow[]> {
      if (accountIds.length === 0) return [];
      const r = await sql<AccessRow>`
        SELECT a.id::text AS account_id, a.max_connections, n.id::text AS network_id, n.slug AS network_slug,
          max(least(g.valid_until, coalesce(g.ended_at, g.valid_until)) + grace.span) AS until
        FROM ntrip_accounts a
        JOIN users u ON u.id = a.owner_user_id
        CROSS JOIN (SELECT ${accessGraceInterval} AS span) grace
        JOIN access_grants g ON g.valid_from <= ${now}
          AND least(g.valid_until, coalesce(g.ended_at, g.valid_until)) + grace.span > ${now}
          AND ${COVERS}
        JOIN networks n ON n.id = g.network_id AND n.status <> 'retired'
        WHERE a.id::text = ANY(${sql.val(accountIds)}::text[]) AND a.deleted_at IS NULL AND a.enabled
          AND NOT u.disabled
          AND (a.organization_id IS NULL OR EXISTS (SELECT 1 FROM organization_members m
            JOIN organizations o ON o.id = m.organization_id AND o.disabled_at IS NULL
            WHERE m.organization_id = a.organization_id AND m.user_id = a.owner_user_id))
        GROUP BY a.id, a.max_connections, n.id, n.slug`.execute(db);
      return r.rows.map((row) => ({ ...row, until: new Date(row.until) }));
    },

    async snapshotNetworks(): Promise<SnapshotNetworkRow[]> {
      const r = await sql<SnapshotNetworkRow>`
        SELECT id::text AS id, slug, name, operator, is_public, reference_frame, integrity_moved_horizontal_m,
          integrity_moved_vertical_m, integrity_good_period_s FROM networks
        WHERE status <> 'retired' ORDER BY slug`.execute(db);
      return r.rows;
    },

    async snapshotStations(): Promise<SnapshotStationRow[]> {
      const r = await sql<SnapshotStationRow>`
        SELECT s.mountpoint, n.slug AS network_slug, s.latitude, s.longitude, s.height_m, s.integrity_override,
          s.survey_revision, s.identifier, s.format,
          s.format_details, s.carrier, s.nav_system, s.country, s.receiver, s.antenna, s.bitrate
        FROM stations s JOIN networks n ON n.id = s.network_id
        WHERE n.status <> 'retired' ORDER BY s.mountpoint`.execute(db);
      return r.rows;
    },

    async pushFeedHash(mountpoint: string): Promise<string | null> {
      const r = await sql<{ hash: Feed['source_password_hash'] }>`
        SELECT f.source_password_hash AS hash FROM feeds f JOIN stations s ON s.id = f.station_id
        WHERE lower(s.mountpoint) = lower(${mountpoint}) AND f.kind = 'push' AND f.enabled`.execute(db);
      return r.rows[0]?.hash ?? null;
    },

    async pullFeeds(): Promise<PullFeedRow[]> {
      const r = await sql<PullFeedRow>`
        SELECT f.id::text AS id, s.mountpoint, f.upstream_host, f.upstream_port, f.upstream_mountpoint,
          f.upstream_username, f.upstream_password_enc, f.upstream_ntrip_version
        FROM feeds f JOIN stations s ON s.id = f.station_id
        JOIN networks n ON n.id = f.network_id
        WHERE f.kind = 'pull' AND f.enabled AND n.status <> 'retired'`.execute(db);
      return r.rows;
    },

    async insertSessions(rows: SessionInsert[]): Promise<void> {
      await db.insertInto('ntrip_sessions').values(rows).execute();
    },

    async reportStationStatus(
      mountpoint: string,
      status: { online: boolean; lastDataAt: Date | null; bitrate: number },
    ): Promise<void> {
      await catalogue.reportStationStatus(mountpoint, status);
    },

    async reportStationIntegrity(
      mountpoint: string,
      report: Parameters<typeof catalogue.reportStationIntegrity>[1],
    ): Promise<void> {
      await catalogue.reportStationIntegrity(mountpoint, report);
    },

    /** Stations a caster stopped confirming go offline, and their live feeds idle (catalogue.repo.ts). */
    async expireStationStatus(olderThanMs: number): Promise<number> {
      return catalogue.expireStationStatus(olderThanMs);
    },

    async resetFeedStatus(): Promise<void> {
      await catalogue.resetFeedStatus();
    },

    async recordFeedStatus(mountpoint: string, status: string, lastError: string | null): Promise<void> {
      await catalogue.recordFeedStatus(mountpoint, status, lastError);
    },
  };
}
