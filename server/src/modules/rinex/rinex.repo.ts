import { type Selectable, sql } from 'kysely';
import type { Database } from '../../db/client.ts';
import type { DB } from '../../db/schema.ts';
import { createCatalogueRepo } from '../catalogue/index.ts';
import { createUsersRepo } from '../users/index.ts';
import type { IndexedHour } from './rinex.policy.ts';
import type { JobHour, RinexJobsTable } from './rinex.tables.ts';
import './rinex.tables.ts';

type Network = Selectable<DB['networks']>;
type ArchiveHour = Selectable<DB['archive_hours']>;

/** A catalogue station with the network columns the RINEX pages need (STATION_COLUMNS). */
export type StationRow = Pick<
  Selectable<DB['stations']>,
  | 'id'
  | 'mountpoint'
  | 'identifier'
  | 'country'
  | 'latitude'
  | 'longitude'
  | 'receiver'
  | 'antenna'
  | 'height_m'
  | 'network_id'
> &
  Pick<Network, 'token_price_per_day' | 'rinex_price_per_hour'> & {
    network_name: Network['name'];
    network_slug: Network['slug'];
    network_status: Network['status'];
    network_operator: Network['operator'];
    network_reference_frame: Network['reference_frame'];
  };

export interface ArchivedHour extends IndexedHour {
  mountpoint: string;
}

export type JobRow = Omit<Selectable<RinexJobsTable>, 'hours'> & { hours: JobHour[] };

/** A job as it is queued: what the request decided; the worker fills in the rest. */
export type NewJob = Pick<
  Selectable<RinexJobsTable>,
  | 'user_id'
  | 'organization_id'
  | 'created_by_admin'
  | 'station_id'
  | 'mountpoint'
  | 'network_name'
  | 'window_start'
  | 'window_end'
  | 'interval_seconds'
  | 'systems'
  | 'hours'
  | 'hours_total'
  | 'hours_with_data'
  | 'charge'
  | 'tokens_charged'
>;

const num = (v: unknown) => Number(v ?? 0);

function toJob(row: Record<string, unknown>): JobRow {
  const hours = typeof row.hours === 'string' ? JSON.parse(row.hours) : row.hours;
  return {
    ...(row as unknown as JobRow),
    hours: hours as JobHour[],
    progress: Number(row.progress),
    result_bytes: row.result_bytes === null ? null : Number(row.result_bytes),
  };
}

const STATION_COLUMNS = sql`s.id, s.mountpoint, s.identifier, s.country, s.latitude, s.longitude, s.receiver, s.antenna,
  s.height_m, s.network_id, n.name AS network_name, n.slug AS network_slug, n.status AS network_status,
  n.operator AS network_operator, n.token_price_per_day, n.rinex_price_per_hour,
  n.reference_frame AS network_reference_frame`;

export type RinexRepo = ReturnType<typeof createRinexRepo>;

/** SQL of the RINEX module: jobs, and read-only views of stations, networks, plans and the archive index. */
export function createRinexRepo(db: Database) {
  return {
    transaction<T>(work: (trx: Database) => Promise<T>): Promise<T> {
      return db.transaction().execute(work);
    },

    /** A catalogue station by mountpoint, as rovers type it (any case), with its network. */
    async station(mountpoint: string): Promise<StationRow | undefined> {
      const r = await sql<StationRow>`
        SELECT ${STATION_COLUMNS} FROM stations s JOIN networks n ON n.id = s.network_id
        WHERE lower(s.mountpoint) = lower(${mountpoint})`.execute(db);
      return r.rows[0];
    },

    /** The stations nearest a position (great-circle distance), of public networks that are not retired. */
    async nearest(lat: number, lon: number, limit: number): Promise<Array<StationRow & { distance_km: number }>> {
      // The distance is computed, not a column.
      const r = await sql<StationRow & { distance_km: number }>`
        SELECT ${STATION_COLUMNS},
          6371.0088 * 2 * asin(sqrt(
            power(sin(radians(s.latitude - ${lat}) / 2), 2)
            + cos(radians(${lat})) * cos(radians(s.latitude)) * power(sin(radians(s.longitude - ${lon}) / 2), 2)
          )) AS distance_km
        FROM stations s JOIN networks n ON n.id = s.network_id
        WHERE n.is_public AND n.status <> 'retired'
        ORDER BY distance_km, s.mountpoint
        LIMIT ${limit}`.execute(db);
      return r.rows.map((row) => ({ ...row, distance_km: Number(row.distance_km) }));
    },

    /** The station's indexed hours overlapping [from, to), under whatever mountpoint each was archived. */
    async archivedHours(stationId: string, from: Date, to: Date): Promise<ArchivedHour[]> {
      const r = await sql<Pick<ArchiveHour, 'mountpoint' | 'hour' | 'bytes' | 'epoch_minutes'>>`
        SELECT mountpoint, hour, bytes, epoch_minutes FROM archive_hours
        WHERE station_id = ${stationId} AND hour >= ${from} AND hour < ${to} AND frames > 0
        ORDER BY hour, mountpoint`.execute(db);
      return r.rows.map((row) => ({
        mountpoint: row.mountpoint,
        hour: new Date(row.hour),
        bytes: num(row.bytes),
        epochMinutes: row.epoch_minutes,
      }));
    },

    /** The organisations the user is a member of. */
    async organizationsOf(userId: string): Promise<string[]> {
      const rows = await db
        .selectFrom('organization_members')
        .select('organization_id')
        .where('user_id', '=', userId)
        .execute();
      return rows.map((r) => r.organization_id);
    },

    /**
     * Whether an open plan grant covers the user on the network and its plan includes RINEX (the admin's attribute,
     * not its texts): the user's own subscriptions and those of the organisations the user is a member of, as NTRIP
     * access is given.
     */
    async planCovers(userId: string, networkId: string, now: Date): Promise<boolean> {
      const r = await sql<{ n: number }>`
        SELECT 1 AS n FROM access_grants g
        JOIN subscriptions sub ON sub.id::text = g.reference_id::text
        JOIN products p ON p.id = sub.product_id
        WHERE g.source = 'subscription' AND g.ended_at IS NULL AND g.network_id = ${networkId} AND p.includes_rinex
          AND g.valid_from <= ${now} AND g.valid_until > ${now}
          AND ((g.organization_id IS NULL AND g.owner_user_id = ${userId})
            OR g.organization_id IN (SELECT organization_id FROM organization_members WHERE user_id = ${userId}))
        LIMIT 1`.execute(db);
      return r.rows.length > 0;
    },

    /** Holds the user's row until the transaction ends: one user's purchases count their running jobs in turn. */
    async lockUser(userId: string, trx: Database): Promise<boolean> {
      return createUsersRepo(trx).lockUser(userId);
    },

    async countOpenJobs(userId: string, trx: Database): Promise<number> {
      const row = await trx
        .selectFrom('rinex_jobs')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('user_id', '=', userId)
        .where('status', 'in', ['queued', 'running'])
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async insertJob(job: NewJob, trx: Database): Promise<JobRow> {
      const row = await trx
        .insertInto('rinex_jobs')
        .values({ ...job, hours: JSON.stringify(job.hours) })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toJob(row);
    },

    async job(id: string, trx: Database = db): Promise<JobRow | undefined> {
      const row = await trx.selectFrom('rinex_jobs').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toJob(row);
    },

    /** The user's jobs and those of their organisations, newest first. */
    async jobsOf(userId: string, organizationIds: string[], limit: number): Promise<JobRow[]> {
      const rows = await db
        .selectFrom('rinex_jobs')
        .selectAll()
        .where((eb) =>
          organizationIds.length > 0
            ? eb.or([eb('user_id', '=', userId), eb('organization_id', 'in', organizationIds)])
            : eb('user_id', '=', userId),
        )
        .orderBy('created_at', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toJob);
    },

    async allJobs(userId: string | undefined, limit: number): Promise<JobRow[]> {
      let q = db.selectFrom('rinex_jobs').selectAll();
      if (userId) q = q.where('user_id', '=', userId);
      const rows = await q.orderBy('created_at', 'desc').limit(limit).execute();
      return rows.map(toJob);
    },

    /**
     * Takes the oldest queued job for this runner, or a running one whose runner stopped renewing its heartbeat
     * before `staleBefore` (a crashed process). SKIP LOCKED: several API processes share one queue.
     */
    async claimJob(now: Date, staleBefore: Date): Promise<JobRow | undefined> {
      const r = await sql<Record<string, unknown>>`
        UPDATE rinex_jobs SET status = 'running', started_at = coalesce(started_at, ${now}), heartbeat_at = ${now},
          attempts = attempts + 1, progress = 0
        WHERE id = (
          SELECT id FROM rinex_jobs
          WHERE status = 'queued' OR (status = 'running' AND heartbeat_at < ${staleBefore})
          ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING *`.execute(db);
      const row = r.rows[0];
      return row && toJob(row);
    },

    /** A job stopped by a shutdown goes back to the queue; the try it was in does not count. */
    async requeue(id: string): Promise<void> {
      await sql`
        UPDATE rinex_jobs SET status = 'queued', heartbeat_at = NULL, progress = 0, attempts = greatest(attempts - 1, 0)
        WHERE id = ${id} AND status = 'running'`.execute(db);
    },

    async heartbeat(id: string, progress: number, now: Date): Promise<void> {
      await db
        .updateTable('rinex_jobs')
        .set({ progress, heartbeat_at: now })
        .where('id', '=', id)
        .where('status', '=', 'running')
        .execute();
    },

    async finishJob(
      id: string,
      result: { name: string; bytes: number; epochs: number; files: string[] },
      now: Date,
      expiresAt: Date,
      trx: Database = db,
    ): Promise<void> {
      await trx
        .updateTable('rinex_jobs')
        .set({
          status: 'done',
          progress: 1,
          finished_at: now,
          expires_at: expiresAt,
          heartbeat_at: null,
          result_name: result.name,
          result_bytes: result.bytes,
          result_epochs: result.epochs,
          result_files: result.files,
        })
        .where('id', '=', id)
        .execute();
    },

    /** Marks the job failed; answers the job as it was, so the caller refunds exactly once (null if not running). */
    async failJob(id: string, error: { code: string; message: string }, now: Date, trx: Database) {
      const row = await trx
        .updateTable('rinex_jobs')
        .set({
          status: 'failed',
          finished_at: now,
          heartbeat_at: null,
          error_code: error.code,
          error_message: error.message,
        })
        .where('id', '=', id)
        .where('status', 'in', ['queued', 'running'])
        .returningAll()
        .executeTakeFirst();
      return row ? toJob(row) : null;
    },

    async setRefunded(id: string, tokens: number, trx: Database): Promise<void> {
      await trx.updateTable('rinex_jobs').set({ tokens_refunded: tokens }).where('id', '=', id).execute();
    },

    /** Done jobs whose zip is past its time; they become expired once their file is removed. */
    async expiredResults(now: Date): Promise<Array<{ id: string }>> {
      return db
        .selectFrom('rinex_jobs')
        .select('id')
        .where('status', '=', 'done')
        .where('expires_at', '<=', now)
        .limit(500)
        .execute();
    },

    async markExpired(id: string): Promise<void> {
      await db
        .updateTable('rinex_jobs')
        .set({ status: 'expired' })
        .where('id', '=', id)
        .where('status', '=', 'done')
        .execute();
    },

    // --- admin ---

    async networks() {
      // Beyond the network's columns, computed: counts and a sum.
      const r = await sql<
        Pick<
          Network,
          'id' | 'slug' | 'name' | 'status' | 'token_price_per_day' | 'rinex_price_per_hour' | 'archive_retention_days'
        > & { stations: number; archived_hours: number; archived_bytes: string }
      >`
        SELECT n.id, n.slug, n.name, n.status, n.token_price_per_day, n.rinex_price_per_hour, n.archive_retention_days,
          (SELECT count(*) FROM stations s WHERE s.network_id = n.id) AS stations,
          coalesce(a.hours, 0) AS archived_hours, coalesce(a.bytes, 0) AS archived_bytes
        FROM networks n
        LEFT JOIN (
          SELECT s.network_id, count(*) AS hours, sum(h.stored_bytes) AS bytes
          FROM archive_hours h JOIN stations s ON s.id = h.station_id GROUP BY s.network_id
        ) a ON a.network_id = n.id
        ORDER BY n.name`.execute(db);
      return r.rows.map((row) => ({
        ...row,
        stations: num(row.stations),
        archived_hours: num(row.archived_hours),
        archived_bytes: num(row.archived_bytes),
      }));
    },

    async updateNetwork(
      id: string,
      changes: { rinex_price_per_hour?: number | null; archive_retention_days?: number },
    ): Promise<boolean> {
      return createCatalogueRepo(db).setNetworkArchiveSettings(id, changes);
    },

    async networkExists(id: string): Promise<boolean> {
      return (await db.selectFrom('networks').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
    },

    async stationsOfNetwork(networkId: string) {
      return db
        .selectFrom('stations')
        .select(['id', 'mountpoint'])
        .where('network_id', '=', networkId)
        .orderBy('mountpoint')
        .execute();
    },

    /** Every indexed hour since `from` of the network's stations, for the coverage strips. */
    async networkHours(networkId: string, from: Date) {
      const r = await sql<
        Pick<ArchiveHour, 'hour' | 'bytes' | 'stored_bytes' | 'epoch_minutes'> & {
          /** Joined to a station, so set. */
          station_id: Selectable<DB['stations']>['id'];
        }
      >`
        SELECT h.station_id, h.hour, h.bytes, h.stored_bytes, h.epoch_minutes
        FROM archive_hours h JOIN stations s ON s.id = h.station_id
        WHERE s.network_id = ${networkId} AND h.hour >= ${from}
        ORDER BY h.station_id, h.hour`.execute(db);
      return r.rows.map((row) => ({
        stationId: row.station_id,
        hour: new Date(row.hour),
        bytes: num(row.bytes),
        storedBytes: num(row.stored_bytes),
        epochMinutes: row.epoch_minutes,
      }));
    },

    /** Each station's whole archive: hours and bytes (any age). */
    async stationTotals(networkId: string) {
      // Beyond the station, computed: a count and sums.
      const r = await sql<{
        station_id: Selectable<DB['stations']>['id'];
        hours: number;
        bytes: string;
        stored_bytes: string;
      }>`
        SELECT h.station_id, count(*) AS hours, sum(h.bytes) AS bytes, sum(h.stored_bytes) AS stored_bytes
        FROM archive_hours h JOIN stations s ON s.id = h.station_id
        WHERE s.network_id = ${networkId} GROUP BY h.station_id`.execute(db);
      return new Map(
        r.rows.map((row) => [
          row.station_id,
          { hours: num(row.hours), bytes: num(row.bytes), storedBytes: num(row.stored_bytes) },
        ]),
      );
    },

    async totals() {
      // Computed: counts, sums and the first and last hour (null without any).
      const r = await sql<{
        stations: number;
        hours: number;
        bytes: string | null;
        stored_bytes: string | null;
        oldest: ArchiveHour['hour'] | null;
        newest: ArchiveHour['hour'] | null;
      }>`
        SELECT count(DISTINCT mountpoint) AS stations, count(*) AS hours, sum(bytes) AS bytes,
          sum(stored_bytes) AS stored_bytes, min(hour) AS oldest, max(hour) AS newest
        FROM archive_hours`.execute(db);
      // Beyond the status, a count.
      const jobs = await sql<Pick<Selectable<RinexJobsTable>, 'status'> & { n: number }>`
        SELECT status, count(*) AS n FROM rinex_jobs GROUP BY status`.execute(db);
      const byStatus = new Map(jobs.rows.map((j) => [j.status, num(j.n)]));
      const row = r.rows[0];
      return {
        stations: num(row?.stations),
        hours: num(row?.hours),
        bytes: num(row?.bytes),
        storedBytes: num(row?.stored_bytes),
        oldestHour: row?.oldest ? new Date(row.oldest) : null,
        newestHour: row?.newest ? new Date(row.newest) : null,
        jobs: {
          queued: byStatus.get('queued') ?? 0,
          running: byStatus.get('running') ?? 0,
          done: byStatus.get('done') ?? 0,
        },
      };
    },

    async userExists(userId: string): Promise<boolean> {
      return (await createUsersRepo(db).findAdminView(userId)) !== undefined;
    },
  };
}
