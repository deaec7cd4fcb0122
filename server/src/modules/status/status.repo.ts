import type { IntegrityCode } from '@portal/contract';
import { type RawBuilder, type Selectable, sql } from 'kysely';
import type { Database } from '../../db/client.ts';
import type { DB } from '../../db/schema.ts';

type Network = Selectable<DB['networks']>;
type Station = Selectable<DB['stations']>;

/**
 * Which stations a question is about: those of the public networks that are not retired (the status page), or the
 * given stations or networks whatever their visibility (the outage alerts).
 */
export interface StationScope {
  stationIds?: readonly string[];
  networkIds?: readonly string[];
}

export interface IncidentRow {
  stationId: string;
  networkId: string;
  networkSlug: string;
  mountpoint: string;
  cause: 'offline' | 'integrity';
  codes: IntegrityCode[];
  start: Date;
  /** Null while it lasts. */
  end: Date | null;
}

export interface StationDayRow {
  stationId: string;
  /** 0 for the window's first day. */
  day: number;
  observedSeconds: number;
  upSeconds: number;
}

function scopeFilter(scope: StationScope): RawBuilder<unknown> {
  if (scope.stationIds) {
    if (scope.stationIds.length === 0) return sql`false`;
    return sql`st.id IN (${sql.join(scope.stationIds.map((id) => sql`${id}::uuid`))})`;
  }
  if (scope.networkIds) {
    if (scope.networkIds.length === 0) return sql`false`;
    return sql`st.network_id IN (${sql.join(scope.networkIds.map((id) => sql`${id}::uuid`))})`;
  }
  return sql`n.is_public AND n.status <> 'retired'`;
}

/**
 * The intervals of constant state of each station in scope between `from` and `to`, counted from the station's first
 * recorded online state (docs/adr/0080: before a base ever sent it data there is nothing to monitor, and a station
 * never online has no intervals at all): the state in force at the later of `from` and that moment (the last change
 * before it) and every change after, each lasting until the next one or `to`. `cause` is null while the station was
 * available: online and not failing integrity. Read through the (station_id, at) index; the rows read are the changes
 * inside the window plus two per station.
 */
function intervals(scope: StationScope, from: Date, to: Date) {
  return sql`
    s0 AS (
      SELECT st.id, st.network_id, n.slug AS network_slug, st.mountpoint,
        (SELECT min(ch.at) FROM station_state_changes ch WHERE ch.station_id = st.id AND ch.online) AS first_seen
      FROM stations st JOIN networks n ON n.id = st.network_id
      WHERE ${scopeFilter(scope)}
    ),
    s AS (
      SELECT s0.*, greatest(${from}::timestamptz, s0.first_seen) AS counted_from FROM s0
      WHERE s0.first_seen < ${to}::timestamptz
    ),
    c AS (
      SELECT ch.id, ch.station_id, ch.at, ch.online, ch.integrity, ch.causes
      FROM station_state_changes ch JOIN s ON s.id = ch.station_id
      WHERE ch.at > s.counted_from AND ch.at < ${to}::timestamptz
      UNION ALL
      SELECT b.id, s.id, s.counted_from, b.online, b.integrity, b.causes
      FROM s CROSS JOIN LATERAL (
        SELECT ch.id, ch.online, ch.integrity, ch.causes FROM station_state_changes ch
        WHERE ch.station_id = s.id AND ch.at <= s.counted_from
        ORDER BY ch.at DESC, ch.id DESC LIMIT 1
      ) b
    ),
    i AS (
      SELECT c.id, c.station_id, c.at AS start,
        coalesce(lead(c.at) OVER w, ${to}::timestamptz) AS finish,
        lead(c.at) OVER w IS NULL AS last,
        CASE WHEN NOT c.online THEN 'offline' WHEN c.integrity = 'failing' THEN 'integrity' END AS cause,
        c.causes
      FROM c WINDOW w AS (PARTITION BY c.station_id ORDER BY c.at, c.id)
    )`;
}

export function createStatusRepo(db: Database) {
  return {
    /**
     * Seconds recorded and seconds available per station and UTC day of the window that starts at `dayZero` (a UTC
     * midnight) and ends at `to`. A day without a row had nothing recorded.
     */
    async stationDays(scope: StationScope, dayZero: Date, to: Date): Promise<StationDayRow[]> {
      // Beyond the station, computed: the day and its seconds.
      const { rows } = await sql<{ station_id: Station['id']; day: number; observed: number; up: number }>`
        WITH ${intervals(scope, dayZero, to)},
        e AS (
          SELECT station_id, cause,
            extract(epoch FROM start - ${dayZero}::timestamptz)::float8 AS a,
            extract(epoch FROM finish - ${dayZero}::timestamptz)::float8 AS b
          FROM i WHERE finish > start
        )
        SELECT e.station_id, k AS day,
          sum(least(e.b, (k + 1) * 86400.0) - greatest(e.a, k * 86400.0))::float8 AS observed,
          coalesce(sum(least(e.b, (k + 1) * 86400.0) - greatest(e.a, k * 86400.0))
            FILTER (WHERE e.cause IS NULL), 0)::float8 AS up
        FROM e CROSS JOIN LATERAL generate_series(floor(e.a / 86400)::int, ceil(e.b / 86400)::int - 1) k
        GROUP BY e.station_id, k`.execute(db);
      return rows.map((r) => ({
        stationId: r.station_id,
        day: Number(r.day),
        observedSeconds: Number(r.observed),
        upSeconds: Number(r.up),
      }));
    },

    /**
     * The incidents between `from` and `to`, newest first, at most `perNetwork` of each network: each run of
     * consecutive intervals with one cause. One that began before `from` starts at `from`; one still lasting at `to`
     * has no end.
     */
    async incidents(scope: StationScope, from: Date, to: Date, perNetwork: number): Promise<IncidentRow[]> {
      // Beyond the station's columns, computed: the run's cause, codes, bounds and whether it lasts.
      const { rows } = await sql<{
        station_id: Station['id'];
        network_id: Network['id'];
        network_slug: Network['slug'];
        mountpoint: Station['mountpoint'];
        cause: 'offline' | 'integrity';
        codes: string | null;
        start: Date | string;
        finish: Date | string;
        ongoing: boolean;
      }>`
        WITH ${intervals(scope, from, to)},
        flagged AS (
          SELECT i.*, CASE WHEN i.cause IS NOT DISTINCT FROM lag(i.cause) OVER w THEN 0 ELSE 1 END AS starts
          FROM i WINDOW w AS (PARTITION BY i.station_id ORDER BY i.start, i.id)
        ),
        grouped AS (
          SELECT f.*, sum(f.starts) OVER (PARTITION BY f.station_id ORDER BY f.start, f.id) AS grp FROM flagged f
        ),
        runs AS (
          SELECT g.station_id, g.cause, min(g.start) AS start, max(g.finish) AS finish, bool_or(g.last) AS ongoing,
            string_agg(g.causes, ',') FILTER (WHERE g.causes <> '') AS codes
          FROM grouped g WHERE g.cause IS NOT NULL
          GROUP BY g.station_id, g.grp, g.cause
        ),
        ranked AS (
          SELECT r.*, s.network_id, s.network_slug, s.mountpoint,
            row_number() OVER (PARTITION BY s.network_id ORDER BY r.start DESC, s.mountpoint) AS n
          FROM runs r JOIN s ON s.id = r.station_id
        )
        SELECT station_id, network_id, network_slug, mountpoint, cause, codes, start, finish, ongoing FROM ranked
        WHERE n <= ${perNetwork}
        ORDER BY start DESC, mountpoint`.execute(db);
      return rows.map((r) => ({
        stationId: r.station_id,
        networkId: r.network_id,
        networkSlug: r.network_slug,
        mountpoint: r.mountpoint,
        cause: r.cause,
        // Offline, no data flows: what the monitor had said before is not the cause.
        codes: r.cause === 'integrity' && r.codes ? ([...new Set(r.codes.split(','))].sort() as IntegrityCode[]) : [],
        start: new Date(r.start),
        end: r.ongoing ? null : new Date(r.finish),
      }));
    },

    /** The stations in scope with their networks and current state, networks by name, stations by mountpoint. */
    async stations(scope: StationScope) {
      const { rows } = await sql<
        Pick<Network, 'slug' | 'name' | 'translations'> &
          Pick<Station, 'mountpoint' | 'identifier' | 'country' | 'status' | 'integrity_state'> & {
            network_id: Network['id'];
            station_id: Station['id'];
            /** Computed: whether a base has ever sent it data (a recorded online state). */
            monitored: boolean;
          }
      >`
        SELECT n.id AS network_id, n.slug, n.name, n.translations, st.id AS station_id, st.mountpoint, st.identifier,
          st.country, st.status, st.integrity_state,
          EXISTS (SELECT 1 FROM station_state_changes ch WHERE ch.station_id = st.id AND ch.online) AS monitored
        FROM networks n JOIN stations st ON st.network_id = n.id
        WHERE ${scopeFilter(scope)}
        ORDER BY n.name, n.id, st.mountpoint`.execute(db);
      return rows;
    },
  };
}

export type StatusRepo = ReturnType<typeof createStatusRepo>;
