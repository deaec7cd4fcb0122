import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/client.ts';
import type { DB } from '../../db/schema.ts';

export type AccountRepo = ReturnType<typeof createAccountRepo>;
type Executor = Database | Transaction<DB>;

export function createAccountRepo(db: Database) {
  return {
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

    async emailOf(userId: string, trx: Executor = db): Promise<string | null> {
      const user = await trx.selectFrom('users').select(['email']).where('id', '=', userId).executeTakeFirst();
      return user?.email ?? null;
    },

    /**
     * Account deletion keeps the users row (payments, subscriptions and the token ledger point at it, and
     * accounting keeps them) with no e-mail, name or photo, and disabled.
     */
    async anonymise(userId: string, now: Date, trx: Executor = db) {
      await trx.deleteFrom('user_photos').where('user_id', '=', userId).execute();
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
