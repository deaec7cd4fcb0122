import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/client.ts';
import type { DB } from '../../db/schema.ts';
import { createDemoRepo } from '../demo/demo.repo.ts';
import { createNtripAccountsRepo } from '../ntrip-accounts/ntrip-accounts.repo.ts';
import { createOrganizationsRepo } from '../organizations/organizations.repo.ts';

export type AccountRepo = ReturnType<typeof createAccountRepo>;
type Executor = Database | Transaction<DB>;

export function createAccountRepo(db: Database) {
  return {
    transaction<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
      return db.transaction().execute(work);
    },

    async savePhoto(
      photo: { userId: string; contentType: string; bytes: Uint8Array; sha256: string; photoUrl: string },
      trx: Executor = db,
    ) {
      await trx
        .insertInto('user_photos')
        .values({ user_id: photo.userId, content_type: photo.contentType, bytes: photo.bytes, sha256: photo.sha256 })
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet({
            content_type: photo.contentType,
            bytes: photo.bytes,
            sha256: photo.sha256,
            updated_at: sql`now()`,
          }),
        )
        .execute();
      await trx
        .updateTable('users')
        .set({ photo_url: photo.photoUrl, updated_at: new Date() })
        .where('id', '=', photo.userId)
        .execute();
    },

    async findPhoto(userId: string, trx: Executor = db) {
      return trx
        .selectFrom('user_photos')
        .innerJoin('users', 'users.id', 'user_photos.user_id')
        .select(['user_photos.content_type', 'user_photos.bytes', 'user_photos.sha256'])
        .where('user_photos.user_id', '=', userId)
        .where('users.disabled', '=', false)
        .executeTakeFirst();
    },

    async removePhoto(userId: string, trx: Executor = db) {
      await trx.deleteFrom('user_photos').where('user_id', '=', userId).execute();
      await trx
        .updateTable('users')
        .set({ photo_url: null, updated_at: new Date() })
        .where('id', '=', userId)
        .execute();
    },

    /** Organisations the user owns, with how many other members and other owners each has. */
    async ownedOrganizations(userId: string, trx: Executor = db) {
      return createOrganizationsRepo(trx).ownedWithOthers(userId);
    },

    async deleteOrganization(organizationId: string, trx: Executor = db) {
      await createOrganizationsRepo(trx).deleteOrganization(organizationId);
    },

    /**
     * Removes the person from the portal and keeps only what must be kept: the users row stays (payments,
     * subscriptions and the token ledger point at it, and accounting keeps them) with no e-mail, name, photo or
     * Firebase uid, and disabled. Memberships, invites to the address, NTRIP accounts (soft-deleted, so their
     * usernames are never reused), open personal access grants and demo requests go, each by the module that owns
     * them, in this transaction.
     */
    async anonymise(userId: string, trx: Executor = db) {
      const now = new Date();
      const user = await trx.selectFrom('users').select(['email']).where('id', '=', userId).executeTakeFirst();
      await trx.deleteFrom('user_photos').where('user_id', '=', userId).execute();
      await createOrganizationsRepo(trx).deleteForUser(userId, user?.email ?? null);
      await createNtripAccountsRepo(trx).deleteAllOfOwner(userId, now);
      await createDemoRepo(trx).deleteForUser(userId);
      await trx
        .updateTable('users')
        .set({
          // The uid stays: a token issued before the deletion (production does not check revocation) finds this
          // disabled row and gets 403, instead of creating a fresh row with the person's e-mail.
          email: null,
          display_name: null,
          photo_url: null,
          disabled: true,
          updated_at: now,
        })
        .where('id', '=', userId)
        .execute();
    },
  };
}
