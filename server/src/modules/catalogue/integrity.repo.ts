import { type Selectable, sql } from 'kysely';
import type { Database } from '../../db/client.ts';
import type { DB } from '../../db/schema.ts';

export type NetworkIntegrityRow = Pick<
  Selectable<DB['networks']>,
  'integrity_moved_horizontal_m' | 'integrity_moved_vertical_m' | 'integrity_good_period_s'
>;

/** An admin's decisions on the integrity monitor and a network's settings for it (issue 33). */
export function createIntegrityRepo(db: Database) {
  return {
    async acknowledge(stationId: string, at: Date): Promise<boolean> {
      const r = await db
        .updateTable('stations')
        .set({ integrity_acknowledged_at: at })
        .where('id', '=', stationId)
        .executeTakeFirst();
      return r.numUpdatedRows > 0n;
    },

    async setOverride(stationId: string, override: boolean): Promise<boolean> {
      const r = await db
        .updateTable('stations')
        .set({ integrity_override: override, updated_at: sql`now()` })
        .where('id', '=', stationId)
        .executeTakeFirst();
      return r.numUpdatedRows > 0n;
    },

    async receivedPosition(stationId: string): Promise<{ x: number; y: number; z: number } | null | undefined> {
      const row = await db
        .selectFrom('stations')
        .select('integrity_position')
        .where('id', '=', stationId)
        .executeTakeFirst();
      return row ? row.integrity_position : undefined;
    },

    /** The catalogue takes the position the station sends; the caster starts its history again from it. */
    async resurvey(
      stationId: string,
      position: { latitude: number; longitude: number; heightM: number },
    ): Promise<void> {
      await db
        .updateTable('stations')
        .set({
          latitude: position.latitude,
          longitude: position.longitude,
          height_m: position.heightM,
          survey_revision: sql`survey_revision + 1`,
          updated_at: sql`now()`,
        })
        .where('id', '=', stationId)
        .execute();
    },

    async networkSettings(networkId: string): Promise<NetworkIntegrityRow | undefined> {
      return db
        .selectFrom('networks')
        .select(['integrity_moved_horizontal_m', 'integrity_moved_vertical_m', 'integrity_good_period_s'])
        .where('id', '=', networkId)
        .executeTakeFirst();
    },

    async setNetworkSettings(networkId: string, values: NetworkIntegrityRow): Promise<NetworkIntegrityRow | undefined> {
      return db
        .updateTable('networks')
        .set({ ...values, updated_at: sql`now()` })
        .where('id', '=', networkId)
        .returning(['integrity_moved_horizontal_m', 'integrity_moved_vertical_m', 'integrity_good_period_s'])
        .executeTakeFirst();
    },
  };
}

export type IntegrityRepo = ReturnType<typeof createIntegrityRepo>;
