import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/client.ts';
import type { DB } from '../../db/schema.ts';

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
      return trx
        .selectFrom('organization_members as mine')
        .innerJoin('organizations', 'organizations.id', 'mine.organization_id')
        .leftJoin('organization_members as other', (join) =>
          join.onRef('other.organization_id', '=', 'mine.organization_id').on('other.user_id', '!=', userId),
        )
        .select((eb) => [
          'organizations.id',
          'organizations.name',
          eb.fn.count<string>('other.user_id').as('otherMembers'),
          eb.fn.count<string>(eb.case().when('other.role', '=', 'owner').then(1).end()).as('otherOwners'),
        ])
        .where('mine.user_id', '=', userId)
        .where('mine.role', '=', 'owner')
        .groupBy(['organizations.id', 'organizations.name'])
        .execute();
    },

    async deleteOrganization(organizationId: string, trx: Executor = db) {
      await trx.deleteFrom('organizations').where('id', '=', organizationId).execute();
    },

    /**
     * Removes the person from the portal and keeps only what must be kept: the users row stays (payments,
     * subscriptions and the token ledger point at it, and accounting keeps them) with no e-mail, name, photo or
     * Firebase uid, and disabled. Memberships, invites to the address, NTRIP accounts (soft-deleted, so their
     * usernames are never reused), open personal access grants and demo requests go.
     */
    async anonymise(userId: string, trx: Executor = db) {
      const now = new Date();
      const user = await trx.selectFrom('users').select(['email']).where('id', '=', userId).executeTakeFirst();
      await trx.deleteFrom('user_photos').where('user_id', '=', userId).execute();
      await trx.deleteFrom('organization_members').where('user_id', '=', userId).execute();
      if (user?.email) {
        await trx.deleteFrom('organization_invites').where(sql`lower(email)`, '=', user.email.toLowerCase()).execute();
      }
      await trx
        .updateTable('ntrip_accounts')
        .set({ enabled: false, deleted_at: now, updated_at: now })
        .where('owner_user_id', '=', userId)
        .where('deleted_at', 'is', null)
        .execute();
      // An organisation's grants stay: the organisation keeps what this member once bought for it.
      await trx
        .updateTable('access_grants')
        .set({ ended_at: now })
        .where('owner_user_id', '=', userId)
        .where('organization_id', 'is', null)
        .where('ended_at', 'is', null)
        .execute();
      await trx.deleteFrom('demo_requests').where('user_id', '=', userId).execute();
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
