import { ACCOUNT_DELETION_MAX_AUTH_AGE_SECONDS } from '@portal/contract';
import type { Database } from '../../db/client.ts';
import type { Actor } from '../../shared/actor.ts';
import { AppError, conflict } from '../../shared/errors.ts';
import type { IdentityVerifier } from '../../shared/identity.ts';
import { providerUnavailable } from '../billing/index.ts';
import type { OrganizationDeletion } from '../organizations/index.ts';

/** What deleting needs from each module it spans; every write takes the deletion's transaction `trx`. */
export interface AccountDeletionDeps {
  /** Opens the one transaction every module's part of a deletion runs in. */
  db: Database;
  identity: Pick<IdentityVerifier, 'deleteAccount'>;
  users: {
    emailOf(userId: string, trx: Database): Promise<string | null>;
    anonymise(userId: string, now: Date, trx: Database): Promise<void>;
  };
  organizations: {
    ownedWithOthers(
      userId: string,
      trx: Database,
    ): Promise<{ id: string; name: string; otherMembers: number | string; otherOwners: number | string }[]>;
    deleteOrganization(orgId: string, trx: Database): Promise<void>;
    deleteForUser(userId: string, email: string | null, trx: Database): Promise<void>;
    remove(actor: Actor, orgId: string, typedName: string, deletion: OrganizationDeletion): Promise<void>;
  };
  ntripAccounts: {
    deleteAllOfOwner(userId: string, now: Date, trx: Database): Promise<void>;
    deleteAllOfOrganization(orgId: string, now: Date, trx: Database): Promise<{ id: string; owner_user_id: string }[]>;
  };
  demo: { deleteForUser(userId: string, trx: Database): Promise<void> };
  billing: {
    endSubscriptionsPaidBy(userId: string): Promise<void>;
    endSubscriptionsOfOrganization(orgId: string): Promise<void>;
  };
  now?: () => Date;
}

export type AccountDeletion = ReturnType<typeof createAccountDeletion>;

/** Deleting a person's account or an organisation: the one use case that spans users, organisations, NTRIP accounts, demo and billing. */
export function createAccountDeletion(deps: AccountDeletionDeps) {
  const now = deps.now ?? (() => new Date());

  /** The organisations to delete with the account (the caller is their only member); throws for a sole owner. */
  async function organizationsToDelete(userId: string, trx: Database = deps.db) {
    const alone: string[] = [];
    for (const org of await deps.organizations.ownedWithOthers(userId, trx)) {
      if (Number(org.otherMembers) === 0) {
        alone.push(org.id);
      } else if (Number(org.otherOwners) === 0) {
        throw conflict(
          'sole_organization_owner',
          `You are the only owner of ${org.name}. Make another member an owner before deleting your account.`,
        );
      }
    }
    return alone;
  }

  return {
    /**
     * Deletes the caller's account: refuses a sign-in older than five minutes (a stolen token alone must not
     * erase an account) and a sole owner of an organisation others belong to; ends the subscriptions the caller
     * pays for at the payment provider; deletes organisations only the caller is in; anonymises the rest; deletes
     * the Firebase account. The provider cannot join a database transaction, so its calls come first and a
     * failure there (502) leaves the account as it was. The Firebase call runs inside the transaction, so its
     * failure leaves the data untouched.
     */
    async deleteAccount(actor: Actor) {
      const age = actor.authTime === undefined ? Number.POSITIVE_INFINITY : now().getTime() / 1000 - actor.authTime;
      if (age > ACCOUNT_DELETION_MAX_AUTH_AGE_SECONDS) {
        throw new AppError(403, 'recent_login_required', 'Please sign in again before deleting your account.');
      }
      if (!deps.identity.deleteAccount) throw new AppError(501, 'internal', 'Account deletion is not available.');
      // Checked before the provider is called, so a refused deletion has ended nothing.
      await organizationsToDelete(actor.userId);
      try {
        await deps.billing.endSubscriptionsPaidBy(actor.userId);
      } catch (err) {
        if (err instanceof AppError && err.code === 'payment_provider_unavailable') {
          throw providerUnavailable(
            'Your subscriptions could not be cancelled at the payment provider, so your account was not deleted. Please try again later.',
          );
        }
        throw err;
      }
      await deps.db.transaction().execute(async (trx) => {
        for (const id of await organizationsToDelete(actor.userId, trx)) {
          await deps.organizations.deleteOrganization(id, trx);
        }
        // The users row stays (payments, subscriptions and the ledger point at it); everything else about the
        // person goes, each part by the module that owns it.
        const at = now();
        const email = await deps.users.emailOf(actor.userId, trx);
        await deps.organizations.deleteForUser(actor.userId, email, trx);
        await deps.ntripAccounts.deleteAllOfOwner(actor.userId, at, trx);
        await deps.demo.deleteForUser(actor.userId, trx);
        await deps.users.anonymise(actor.userId, at, trx);
        await deps.identity.deleteAccount?.(actor.uid);
      });
    },

    /**
     * Deleting an organisation asks for its name typed again. Its subscriptions end first, at the provider (so
     * nothing goes on charging a member for an organisation that is gone); then, in one transaction, its NTRIP
     * accounts and grants end and it is deleted with its members and invites.
     */
    deleteOrganization(actor: Actor, orgId: string, typedName: string) {
      return deps.organizations.remove(actor, orgId, typedName, {
        endSubscriptions: () => deps.billing.endSubscriptionsOfOrganization(orgId),
        endAccounts: (at, trx) => deps.ntripAccounts.deleteAllOfOrganization(orgId, at, trx),
      });
    },
  };
}
