import {
  PORTAL_SETTING_KEYS,
  PORTAL_SETTINGS_DEFAULTS,
  type PortalSettingKey,
  type PortalSettings,
  type PortalSettingsPatch,
  portalSettingsSchema,
} from '@portal/contract';
import { sql } from 'kysely';
import type { Database } from '../../db/client.ts';
import type {} from './settings.tables.ts';

/**
 * The settings in force, read from the database every time: callers pass the transaction that spends the limit, so
 * a change is seen by the next request of every API process (docs/adr/0028). A stored value that no longer parses
 * (a key whose bounds were narrowed by a later release) falls back to its default rather than failing the request.
 */
export async function readSettings(db: Database): Promise<PortalSettings> {
  const rows = await db.selectFrom('portal_settings').select(['key', 'value']).execute();
  const values: Record<string, unknown> = { ...PORTAL_SETTINGS_DEFAULTS };
  for (const row of rows) {
    if (!PORTAL_SETTING_KEYS.includes(row.key as PortalSettingKey)) continue;
    const parsed = portalSettingsSchema.shape[row.key as PortalSettingKey].safeParse(row.value);
    if (parsed.success) values[row.key] = parsed.data;
  }
  return values as PortalSettings;
}

/**
 * The grace period as an SQL interval, for queries that decide access in the database (the caster's): the stored
 * hours, or the default when the key was never set.
 */
export const accessGraceInterval = sql<string>`make_interval(hours => coalesce(
  (SELECT (value #>> '{}')::int FROM portal_settings WHERE key = 'accessGraceHours'),
  ${PORTAL_SETTINGS_DEFAULTS.accessGraceHours}::int))`;

export type SettingsRepo = ReturnType<typeof createSettingsRepo>;

export function createSettingsRepo(db: Database) {
  return {
    transaction: <T>(fn: (trx: Database) => Promise<T>) => db.transaction().execute(fn),

    read: () => readSettings(db),

    /** Serialises writers, so the before and after each one records are what it really changed. */
    async lock(trx: Database): Promise<void> {
      await sql`LOCK TABLE portal_settings IN SHARE ROW EXCLUSIVE MODE`.execute(trx);
    },

    async changes(trx: Database = db) {
      return trx
        .selectFrom('portal_settings as s')
        .leftJoin('users as u', 'u.id', 's.updated_by')
        .select(['s.key', 's.updated_at', 'u.email'])
        .orderBy('s.key')
        .execute();
    },

    async write(patch: PortalSettingsPatch, userId: string, trx: Database): Promise<void> {
      const entries = Object.entries(patch).filter(([, v]) => v !== undefined);
      if (entries.length === 0) return;
      await trx
        .insertInto('portal_settings')
        .values(entries.map(([key, value]) => ({ key, value: JSON.stringify(value), updated_by: userId })))
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            value: (eb) => eb.ref('excluded.value'),
            updated_by: (eb) => eb.ref('excluded.updated_by'),
            updated_at: sql`now()`,
          }),
        )
        .execute();
    },
  };
}
