import type { AdminPortalSettings, PortalSettingsPatch } from '@portal/contract';
import type { Actor } from '../../http/auth.ts';
import { iso } from '../../http/iso.ts';
import { readSettings, type SettingsRepo } from './settings.repo.ts';

export type SettingsService = ReturnType<typeof createSettingsService>;

export function createSettingsService({ repo }: { repo: SettingsRepo }) {
  async function present(): Promise<AdminPortalSettings> {
    return repo.transaction(async (trx) => {
      const values = await readSettings(trx);
      const changes = await repo.changes(trx);
      return {
        values,
        changes: changes.map((c) => ({ key: c.key, updatedAt: iso(c.updated_at), updatedBy: c.email })),
      };
    });
  }

  return {
    get: () => present(),

    /** Writes the keys given; the next request of any process enforces them, since every reader reads the table. */
    async update(actor: Actor, patch: PortalSettingsPatch): Promise<AdminPortalSettings> {
      await repo.transaction(async (trx) => {
        await repo.lock(trx);
        const before = await readSettings(trx);
        const changed = Object.fromEntries(
          Object.entries(patch).filter(
            ([key, value]) => value !== undefined && before[key as keyof typeof before] !== value,
          ),
        ) as PortalSettingsPatch;
        await repo.write(changed, actor.userId, trx);
      });
      return present();
    },
  };
}
