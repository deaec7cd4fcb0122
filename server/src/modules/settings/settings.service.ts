import type { AdminPortalSettings, PortalSettingKey, PortalSettingsPatch, SignUpPolicy } from '@portal/contract';
import { iso } from '../../shared/iso.ts';
import { type AuditWho, recordAudit } from '../audit/index.ts';
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

    /** What the sign-up form needs to know before anyone has an account. */
    async signUpPolicy(): Promise<SignUpPolicy> {
      return { signUp: (await repo.read()).signUp };
    },

    /**
     * Writes the keys given that change, and their before and after to the audit log in the same transaction; the
     * next request of any process enforces them, since every reader reads the table.
     */
    async update(
      who: AuditWho & { actor: { userId: string } },
      patch: PortalSettingsPatch,
    ): Promise<AdminPortalSettings> {
      await repo.transaction(async (trx) => {
        await repo.lock(trx);
        const before = await readSettings(trx);
        const keys = (Object.keys(patch) as PortalSettingKey[]).filter(
          (key) => patch[key] !== undefined && before[key] !== patch[key],
        );
        if (keys.length === 0) return;
        const changed = Object.fromEntries(keys.map((key) => [key, patch[key]])) as PortalSettingsPatch;
        await repo.write(changed, who.actor.userId, trx);
        await recordAudit(trx, {
          ...who,
          action: 'settings.update',
          target: { type: 'settings', id: keys.join(',') },
          before: Object.fromEntries(keys.map((key) => [key, before[key]])),
          after: changed,
        });
      });
      return present();
    },
  };
}
