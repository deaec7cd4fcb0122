import type { ArchiveHourUpdate } from '@portal/caster/archive';
import { type Selectable, sql } from 'kysely';
import type { Database } from '../../db/client.ts';
import type { DB } from '../../db/schema.ts';

/** Days an hour is kept when its station, or the station's network, no longer exists. */
export const DEFAULT_RETENTION_DAYS = 30;

/** An indexed hour: every archive_hours column but the station and the update time. */
export type ArchiveHourRow = Omit<Selectable<DB['archive_hours']>, 'station_id' | 'updated_at'>;

export interface ArchiveStation {
  id: string;
  /** As the catalogue spells it. */
  mountpoint: string;
  country: string;
}

export type ArchiveRepo = ReturnType<typeof createArchiveRepo>;

/** SQL of the archive: its index (archive_hours) and, read only, stations and networks for names and retention. */
export function createArchiveRepo(db: Database) {
  return {
    /** Adds each update to its hour's row; a row is made on the hour's first update. */
    async recordHours(updates: ArchiveHourUpdate[]): Promise<void> {
      if (updates.length === 0) return;
      const rows = updates.map((u) => ({
        mountpoint: u.mountpoint,
        hour: u.hour.toISOString(),
        bytes: u.bytes,
        frames: u.frames,
        stored_bytes: u.storedBytes,
        dropped_frames: u.droppedFrames,
        first_frame_at: u.firstFrameAt?.toISOString() ?? null,
        last_frame_at: u.lastFrameAt?.toISOString() ?? null,
        first_epoch: u.firstEpoch?.toISOString() ?? null,
        last_epoch: u.lastEpoch?.toISOString() ?? null,
        epoch_minutes: u.epochMinutes,
        message_types: u.messageTypes,
      }));
      await sql`
        INSERT INTO archive_hours AS h (mountpoint, hour, station_id, bytes, frames, stored_bytes, dropped_frames,
          first_frame_at, last_frame_at, first_epoch, last_epoch, epoch_minutes, message_types)
        SELECT x.mountpoint, x.hour, s.id, x.bytes, x.frames, x.stored_bytes, x.dropped_frames, x.first_frame_at,
          x.last_frame_at, x.first_epoch, x.last_epoch, ARRAY(SELECT jsonb_array_elements_text(x.epoch_minutes))::int[],
          ARRAY(SELECT jsonb_array_elements_text(x.message_types))::int[]
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(mountpoint text, hour timestamptz, bytes bigint,
          frames bigint, stored_bytes bigint, dropped_frames bigint, first_frame_at timestamptz,
          last_frame_at timestamptz, first_epoch timestamptz, last_epoch timestamptz, epoch_minutes jsonb,
          message_types jsonb)
        LEFT JOIN stations s ON s.mountpoint = x.mountpoint
        ON CONFLICT (mountpoint, hour) DO UPDATE SET
          station_id = coalesce(excluded.station_id, h.station_id),
          bytes = h.bytes + excluded.bytes,
          frames = h.frames + excluded.frames,
          stored_bytes = h.stored_bytes + excluded.stored_bytes,
          dropped_frames = h.dropped_frames + excluded.dropped_frames,
          first_frame_at = least(h.first_frame_at, excluded.first_frame_at),
          last_frame_at = greatest(h.last_frame_at, excluded.last_frame_at),
          first_epoch = least(h.first_epoch, excluded.first_epoch),
          last_epoch = greatest(h.last_epoch, excluded.last_epoch),
          epoch_minutes = ARRAY(SELECT DISTINCT m FROM unnest(h.epoch_minutes || excluded.epoch_minutes) AS m ORDER BY m),
          message_types = ARRAY(SELECT DISTINCT t FROM unnest(h.message_types || excluded.message_types) AS t ORDER BY t),
          updated_at = now()`.execute(db);
    },

    /** A catalogue station by mountpoint, as rovers type it (any case). */
    async station(mountpoint: string): Promise<ArchiveStation | undefined> {
      return db
        .selectFrom('stations')
        .select(['id', 'mountpoint', 'country'])
        .where(sql<boolean>`lower(mountpoint) = lower(${mountpoint})`)
        .executeTakeFirst();
    },

    /** The station's indexed hours that overlap [from, to), oldest first, under whatever mountpoint they were archived. */
    async hoursOf(stationId: string, from: Date, to: Date): Promise<ArchiveHourRow[]> {
      return db
        .selectFrom('archive_hours')
        .select([
          'mountpoint',
          'hour',
          'bytes',
          'frames',
          'stored_bytes',
          'dropped_frames',
          'first_frame_at',
          'last_frame_at',
          'first_epoch',
          'last_epoch',
          'epoch_minutes',
          'message_types',
        ])
        .where('station_id', '=', stationId)
        .where('hour', '<', to)
        .where(sql<boolean>`hour + interval '1 hour' > ${from}`)
        .orderBy('hour')
        .orderBy('mountpoint')
        .execute();
    },

    /**
     * Retention in days by lower-cased mountpoint: each station's under its current name and under every name its
     * indexed hours were archived with.
     */
    async retentionByMountpoint(): Promise<Map<string, number>> {
      const r = await sql<{
        mountpoint: Selectable<DB['stations']>['mountpoint'];
        days: Selectable<DB['networks']>['archive_retention_days'];
      }>`
        SELECT lower(s.mountpoint) AS mountpoint, n.archive_retention_days AS days
        FROM stations s JOIN networks n ON n.id = s.network_id
        UNION
        SELECT DISTINCT lower(h.mountpoint), n.archive_retention_days
        FROM archive_hours h JOIN stations s ON s.id = h.station_id JOIN networks n ON n.id = s.network_id`.execute(db);
      return new Map(r.rows.map((row) => [row.mountpoint, row.days]));
    },

    async deleteHour(mountpoint: string, hour: Date): Promise<number> {
      const r = await db
        .deleteFrom('archive_hours')
        .where('mountpoint', '=', mountpoint)
        .where('hour', '=', hour)
        .executeTakeFirst();
      return Number(r.numDeletedRows);
    },

    /** Deletes the index rows of hours past their network's retention (the default for a station gone since). */
    async deleteExpiredRows(now: Date): Promise<number> {
      const r = await sql`
        DELETE FROM archive_hours h
        WHERE h.hour + interval '1 hour' <= ${now}::timestamptz - make_interval(days => coalesce(
          (SELECT n.archive_retention_days FROM stations s JOIN networks n ON n.id = s.network_id
           WHERE s.id = h.station_id), ${DEFAULT_RETENTION_DAYS}))`.execute(db);
      return Number(r.numAffectedRows ?? 0);
    },
  };
}
