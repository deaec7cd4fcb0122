import type { Database } from '../../db/client.ts';
import { AppError, notFound } from '../../shared/errors.ts';
import { createOrganizationsRepo } from './organizations.repo.ts';

export type OrganizationLedger = ReturnType<typeof createOrganizationLedger>;

/**
 * The organisation's tokens as other modules spend them, inside their own transaction: the organisation's row is
 * locked (as every membership change locks it), so concurrent spends run one after another and never overspend.
 */
export function createOrganizationLedger(db: Database) {
  return {
    async spend(
      entry: { orgId: string; amount: number; referenceId: string; note?: string; createdBy: string },
      trx: Database,
    ): Promise<{ balance: number }> {
      const repo = createOrganizationsRepo(trx);
      const org = await repo.lockOrganization(entry.orgId);
      if (!org) throw notFound('Organisation');
      const balance = Number(org.token_balance);
      if (balance < entry.amount) {
        throw new AppError(
          409,
          'insufficient_tokens',
          `Not enough tokens: ${entry.amount} needed, ${balance} available.`,
        );
      }
      const after = balance - entry.amount;
      await repo.appendTokens({
        orgId: entry.orgId,
        kind: 'activation_spend',
        delta: -entry.amount,
        balanceAfter: after,
        referenceId: entry.referenceId,
        note: entry.note ?? null,
        createdBy: entry.createdBy,
      });
      return { balance: after };
    },
    async balance(orgId: string): Promise<number> {
      return Number((await createOrganizationsRepo(db).find(orgId))?.token_balance ?? 0);
    },
  };
}
