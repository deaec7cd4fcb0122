import type { BBox } from '@portal/contract';
import {
  type ExpressionBuilder,
  type Insertable,
  type Selectable,
  type SelectQueryBuilder,
  sql,
  type Updateable,
} from 'kysely';
import type { Database } from '../../db/client.ts';
import type { DB, FeedsTable, IntegrityReasonJson, NetworksTable, StationsTable } from '../../db/schema.ts';

export type NetworkRow = Selectable<NetworksTable>;
export type StationRow = Selectable<StationsTable>;
export type FeedRow = Selectable<FeedsTable>;

/** A network with figures computed over its stations. */
export interface NetworkSummaryRow extends NetworkRow {
  station_count: number;
  online_station_count: number;
  min_lon: number | null;
  min_lat: number | null;
  max_lon: number | null;
  max_lat: number | null;
  center_lon: number | null;
  center_lat: number | null;
}

export type StationWithNetworkRow = StationRow & {
  network_slug: NetworkRow['slug'];
  network_reference_frame: NetworkRow['reference_frame'];
};
export type FeedWithMountpointRow = FeedRow & {
  mountpoint: StationRow['mountpoint'];
  /** Null when the feed has no owner (a left join). */
  owner_email: Selectable<DB['users']>['email'] | null;
};

export interface StationFilter {
  networkId?: string;
  /** Only stations of networks the public may see (see catalogue.policy.ts). */
  publicOnly: boolean;
  bbox?: BBox;
  status?: 'online' | 'offline';
  search?: string;
}

export interface FeedFilter {
  networkId?: string;
  kind?: 'push' | 'pull';
  enabled?: boolean;
}

export interface Page {
  limit: number;
  offset: number;
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Mirrors isPubliclyListed() of catalogue.policy.ts for queries over many rows. */
const publiclyListed = (eb: ExpressionBuilder<DB, 'networks'>) =>
  eb.and([eb('networks.is_public', '=', true), eb('networks.status', '<>', 'retired')]);

export type CatalogueQueries = ReturnType<typeof createCatalogueQueries>;
export type CatalogueRepo = ReturnType<typeof createCatalogueRepo>;

/** The only code that reads or writes networks, stations and feeds; every query can run inside a transaction. */
export function createCatalogueRepo(db: Database) {
  return {
    ...createCatalogueQueries(db),
    async transaction<T>(work: (queries: CatalogueQueries) => Promise<T>): Promise<T> {
      return db.transaction().execute((trx) => work(createCatalogueQueries(trx)));
    },
  };
}

/** A row as it arrives through JSON: timestamps are ISO strings. */
export type Jsonified<T> = { [K in keyof T]: Date extends T[K] ? Exclude<T[K], Date> | string : T[K] };

function createCatalogueQueries(db: Database) {
  /**
   * Long station lists leave the database as one JSON text rather than thousands of rows: PGlite decodes a
   * result value by value, and for the 10,000-marker map this is several times faster (docs/performance.md).
   * Every caller orders by mountpoint, and the aggregate keeps that order explicitly.
   */
  async function jsonRows<T extends { mountpoint: string }>(
    query: SelectQueryBuilder<DB, 'stations' | 'networks', T>,
  ): Promise<Jsonified<T>[]> {
    const { rows } = await db
      .selectFrom(query.as('t'))
      .select(sql<string>`coalesce(json_agg(t ORDER BY t.mountpoint), '[]')::text`.as('rows'))
      .executeTakeFirstOrThrow();
    return JSON.parse(rows) as Jsonified<T>[];
  }

  const networkSummaries = () =>
    db
      .selectFrom('networks')
      .leftJoin('stations', 'stations.network_id', 'networks.id')
      .selectAll('networks')
      .select([
        sql<number>`count(stations.id)::int`.as('station_count'),
        sql<number>`(count(stations.id) FILTER (WHERE stations.status = 'online'))::int`.as('online_station_count'),
        sql<number | null>`min(stations.longitude)`.as('min_lon'),
        sql<number | null>`min(stations.latitude)`.as('min_lat'),
        sql<number | null>`max(stations.longitude)`.as('max_lon'),
        sql<number | null>`max(stations.latitude)`.as('max_lat'),
        sql<number | null>`avg(stations.longitude)`.as('center_lon'),
        sql<number | null>`avg(stations.latitude)`.as('center_lat'),
      ])
      .groupBy('networks.id');

  const filteredStations = (filter: StationFilter) => {
    let query = db.selectFrom('stations').innerJoin('networks', 'networks.id', 'stations.network_id');
    if (filter.publicOnly) query = query.where(publiclyListed);
    if (filter.networkId) query = query.where('stations.network_id', '=', filter.networkId);
    if (filter.status) query = query.where('stations.status', '=', filter.status);
    if (filter.search) {
      const pattern = `%${filter.search.replace(/[\\%_]/g, '\\$&')}%`;
      query = query.where((eb) =>
        eb.or([eb('stations.mountpoint', 'ilike', pattern), eb('stations.identifier', 'ilike', pattern)]),
      );
    }
    if (filter.bbox) {
      const [minLon, minLat, maxLon, maxLat] = filter.bbox;
      query = query.where('stations.latitude', '>=', minLat).where('stations.latitude', '<=', maxLat);
      query =
        minLon <= maxLon
          ? query.where('stations.longitude', '>=', minLon).where('stations.longitude', '<=', maxLon)
          : query.where((eb) =>
              eb.or([eb('stations.longitude', '>=', minLon), eb('stations.longitude', '<=', maxLon)]),
            );
    }
    return query;
  };

  return {
    // ---------- networks ----------

    async listNetworks(options: { publicOnly: boolean }): Promise<NetworkSummaryRow[]> {
      let query = networkSummaries();
      if (options.publicOnly) query = query.where(publiclyListed);
      return query.orderBy('networks.name').orderBy('networks.id').execute();
    },

    async findNetworkSummary(idOrSlug: string): Promise<NetworkSummaryRow | undefined> {
      return networkSummaries()
        .where(UUID_PATTERN.test(idOrSlug) ? 'networks.id' : 'networks.slug', '=', idOrSlug)
        .executeTakeFirst();
    },

    async findNetwork(idOrSlug: string): Promise<NetworkRow | undefined> {
      return db
        .selectFrom('networks')
        .selectAll()
        .where(UUID_PATTERN.test(idOrSlug) ? 'id' : 'slug', '=', idOrSlug)
        .executeTakeFirst();
    },

    async slugsStartingWith(prefix: string): Promise<string[]> {
      const rows = await db
        .selectFrom('networks')
        .select('slug')
        .where('slug', 'like', `${prefix.replace(/[\\%_]/g, '\\$&')}%`)
        .execute();
      return rows.map((r) => r.slug);
    },

    async insertNetwork(values: Insertable<NetworksTable>): Promise<NetworkRow> {
      return db.insertInto('networks').values(values).returningAll().executeTakeFirstOrThrow();
    },

    async updateNetwork(id: string, values: Updateable<NetworksTable>): Promise<NetworkRow | undefined> {
      return db
        .updateTable('networks')
        .set({ ...values, updated_at: sql`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
    },

    async deleteNetwork(id: string): Promise<boolean> {
      const result = await db.deleteFrom('networks').where('id', '=', id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    /**
     * The RINEX admin's settings of a network: its price per station-hour and how long the archive keeps its hours.
     * False when there is no such network.
     */
    async setNetworkArchiveSettings(
      id: string,
      changes: { rinex_price_per_hour?: number | null; archive_retention_days?: number },
    ): Promise<boolean> {
      if (Object.keys(changes).length === 0) {
        return (await db.selectFrom('networks').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
      }
      const r = await db
        .updateTable('networks')
        .set({ ...changes, updated_at: new Date() })
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    /** The networks with these ids, as the NTRIP accounts module shows and charges for them. */
    async networksByIds(ids: string[]) {
      if (ids.length === 0) return [];
      return db
        .selectFrom('networks')
        .select(['id', 'slug', 'name', 'status', 'token_price_per_day'])
        .where('id', 'in', ids)
        .execute();
    },

    // ---------- stations ----------

    async countStations(filter: StationFilter): Promise<number> {
      const row = await filteredStations(filter)
        .select(sql<number>`count(*)::int`.as('total'))
        .executeTakeFirstOrThrow();
      return row.total;
    },

    async listStations(filter: StationFilter, page: Page): Promise<Jsonified<StationWithNetworkRow>[]> {
      return jsonRows(
        filteredStations(filter)
          .selectAll('stations')
          .select(['networks.slug as network_slug', 'networks.reference_frame as network_reference_frame'])
          .orderBy('stations.mountpoint')
          .limit(page.limit)
          .offset(page.offset),
      );
    },

    async listStationMarkers(filter: StationFilter, page: Page) {
      return jsonRows(
        filteredStations(filter)
          .select([
            'stations.id',
            'stations.network_id',
            'stations.mountpoint',
            'stations.latitude',
            'stations.longitude',
            'stations.status',
          ])
          .orderBy('stations.mountpoint')
          .limit(page.limit)
          .offset(page.offset),
      );
    },

    async findStation(id: string, options: { publicOnly: boolean }): Promise<StationWithNetworkRow | undefined> {
      return filteredStations({ publicOnly: options.publicOnly })
        .selectAll('stations')
        .select(['networks.slug as network_slug', 'networks.reference_frame as network_reference_frame'])
        .where('stations.id', '=', id)
        .executeTakeFirst();
    },

    async findStationsByMountpoints(mountpoints: string[]): Promise<StationWithNetworkRow[]> {
      if (mountpoints.length === 0) return [];
      return filteredStations({ publicOnly: false })
        .selectAll('stations')
        .select(['networks.slug as network_slug', 'networks.reference_frame as network_reference_frame'])
        .where(
          sql`lower(stations.mountpoint)`,
          'in',
          mountpoints.map((m) => m.toLowerCase()),
        )
        .execute();
    },

    async insertStation(values: Insertable<StationsTable>): Promise<StationRow> {
      return db.insertInto('stations').values(values).returningAll().executeTakeFirstOrThrow();
    },

    async updateStation(id: string, values: Updateable<StationsTable>): Promise<StationRow | undefined> {
      return db
        .updateTable('stations')
        .set({ ...values, updated_at: sql`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
    },

    async deleteStation(id: string): Promise<boolean> {
      const result = await db.deleteFrom('stations').where('id', '=', id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    /** The stations of these networks, for the NTRIP accounts module's nearest-station hints. */
    async stationsOfNetworks(networkIds: string[]) {
      if (networkIds.length === 0) return [];
      return db
        .selectFrom('stations')
        .select(['network_id', 'mountpoint', 'identifier', 'status', 'latitude', 'longitude'])
        .where('network_id', 'in', networkIds)
        .orderBy('mountpoint')
        .execute();
    },

    // ---------- live status, written by the caster (docs/adr/0011-station-status-after-a-crash.md) ----------

    /** A caster's report on one station it feeds; a zero bitrate or no data time keeps the last known one. */
    async reportStationStatus(
      mountpoint: string,
      status: { online: boolean; lastDataAt: Date | null; bitrate: number },
    ): Promise<void> {
      await sql`
        UPDATE stations SET status = ${status.online ? 'online' : 'offline'},
          last_data_at = coalesce(${status.lastDataAt}, last_data_at),
          bitrate = CASE WHEN ${status.bitrate}::int > 0 THEN ${status.bitrate}::int ELSE bitrate END,
          status_reported_at = now()
        WHERE lower(mountpoint) = lower(${mountpoint})`.execute(db);
    },

    /** The caster's integrity report on a station (issue 33); the trigger records a change of state for the history. */
    async reportStationIntegrity(
      mountpoint: string,
      report: {
        state: 'ok' | 'warning' | 'failing';
        reasons: IntegrityReasonJson[];
        excluded: boolean;
        position: { x: number; y: number; z: number } | null;
      },
    ): Promise<void> {
      await sql`
        UPDATE stations SET integrity_state = ${report.state},
          integrity_reasons = ${JSON.stringify(report.reasons)}::jsonb,
          integrity_excluded = ${report.excluded},
          integrity_position = coalesce(${report.position === null ? null : JSON.stringify(report.position)}::jsonb,
            integrity_position),
          -- A new failure needs a new acknowledgement.
          integrity_acknowledged_at = CASE WHEN ${report.state} = 'failing' AND integrity_state <> 'failing'
            THEN NULL ELSE integrity_acknowledged_at END
        WHERE lower(mountpoint) = lower(${mountpoint})`.execute(db);
    },

    /**
     * Turns offline the stations a caster reported online more than `olderThanMs` ago and has not confirmed
     * since: their caster stopped without saying so. Their feeds that were connecting or connected go idle with
     * them. The database's clock on both sides, so node clocks may differ.
     */
    async expireStationStatus(olderThanMs: number): Promise<number> {
      const { rows } = await sql<{ stations: string }>`
        WITH expired AS (
          UPDATE stations SET status = 'offline'
          WHERE status = 'online' AND status_reported_at < now() - ${olderThanMs} * interval '1 millisecond'
          RETURNING id
        ), idle AS (
          UPDATE feeds SET status = 'idle'
          WHERE station_id IN (SELECT id FROM expired) AND status IN ('connecting', 'connected')
        )
        SELECT count(*) AS stations FROM expired`.execute(db);
      return Number(rows[0]?.stations ?? 0);
    },

    /** Every feed goes idle: for the only caster, at its start, when nothing can be connecting or connected yet. */
    async resetFeedStatus(): Promise<void> {
      await sql`UPDATE feeds SET status = 'idle' WHERE status IN ('connecting', 'connected')`.execute(db);
    },

    /** A caster's report on the pull feed of a station: its connection state and the last error, if any. */
    async recordFeedStatus(mountpoint: string, status: string, lastError: string | null): Promise<void> {
      await sql`
        UPDATE feeds f SET status = ${status}, last_error = ${lastError}
        FROM stations s WHERE s.id = f.station_id AND lower(s.mountpoint) = lower(${mountpoint})`.execute(db);
    },

    // ---------- feeds ----------

    async countFeeds(filter: FeedFilter): Promise<number> {
      let query = db.selectFrom('feeds').select(sql<number>`count(*)::int`.as('total'));
      if (filter.networkId) query = query.where('network_id', '=', filter.networkId);
      if (filter.kind) query = query.where('kind', '=', filter.kind);
      if (filter.enabled !== undefined) query = query.where('enabled', '=', filter.enabled);
      return (await query.executeTakeFirstOrThrow()).total;
    },

    async listFeeds(filter: FeedFilter, page: Page): Promise<FeedWithMountpointRow[]> {
      let query = db
        .selectFrom('feeds')
        .innerJoin('stations', 'stations.id', 'feeds.station_id')
        .leftJoin('users', 'users.id', 'feeds.owner_user_id')
        .selectAll('feeds')
        .select(['stations.mountpoint', 'users.email as owner_email']);
      if (filter.networkId) query = query.where('feeds.network_id', '=', filter.networkId);
      if (filter.kind) query = query.where('feeds.kind', '=', filter.kind);
      if (filter.enabled !== undefined) query = query.where('feeds.enabled', '=', filter.enabled);
      return query.orderBy('stations.mountpoint').limit(page.limit).offset(page.offset).execute();
    },

    async findFeedOfStation(stationId: string): Promise<Pick<FeedRow, 'id' | 'kind'> | undefined> {
      return db.selectFrom('feeds').select(['id', 'kind']).where('station_id', '=', stationId).executeTakeFirst();
    },

    async findFeed(id: string): Promise<FeedWithMountpointRow | undefined> {
      return db
        .selectFrom('feeds')
        .innerJoin('stations', 'stations.id', 'feeds.station_id')
        .leftJoin('users', 'users.id', 'feeds.owner_user_id')
        .selectAll('feeds')
        .select(['stations.mountpoint', 'users.email as owner_email'])
        .where('feeds.id', '=', id)
        .executeTakeFirst();
    },

    /** A base's owner is named by their account's e-mail (case as typed does not matter); disabled users are none. */
    async findOwnerByEmail(email: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('users')
        .select('id')
        .where(sql`lower(email)`, '=', email.toLowerCase())
        .where('disabled', '=', false)
        .executeTakeFirst();
      return row?.id;
    },

    async insertFeed(values: Insertable<FeedsTable>): Promise<FeedRow> {
      return db.insertInto('feeds').values(values).returningAll().executeTakeFirstOrThrow();
    },

    async updateFeed(id: string, values: Updateable<FeedsTable>): Promise<FeedRow | undefined> {
      return db
        .updateTable('feeds')
        .set({ ...values, updated_at: sql`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
    },

    async deleteFeed(id: string): Promise<boolean> {
      const result = await db.deleteFrom('feeds').where('id', '=', id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}

/** The PostgreSQL error behind a failed write, when there is one (pg and PGlite report them alike). */
export function databaseError(err: unknown): { code: string; constraint?: string } | undefined {
  if (typeof err !== 'object' || err === null || !('code' in err) || typeof err.code !== 'string') return undefined;
  const constraint = 'constraint' in err && typeof err.constraint === 'string' ? err.constraint : undefined;
  return { code: err.code, constraint };
}
