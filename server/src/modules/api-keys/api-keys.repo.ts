import type { ApiKeyScope } from '@portal/contract';
import { sql } from 'kysely';
import type { Database } from '../../db/client.ts';

export type ApiKeysRepo = ReturnType<typeof createApiKeysRepo>;

const listColumns = [
  'id',
  'user_id',
  'organization_id',
  'name',
  'prefix',
  'scopes',
  'created_at',
  'expires_at',
  'revoked_at',
  'last_used_at',
  'last_used_ip',
] as const;

export function createApiKeysRepo(db: Database) {
  return {
    async insert(row: {
      userId: string;
      organizationId: string | null;
      name: string;
      prefix: string;
      keyHash: string;
      scopes: ApiKeyScope[];
      expiresAt: Date | null;
    }) {
      return db
        .insertInto('api_keys')
        .values({
          user_id: row.userId,
          organization_id: row.organizationId,
          name: row.name,
          prefix: row.prefix,
          key_hash: row.keyHash,
          scopes: JSON.stringify(row.scopes),
          expires_at: row.expiresAt,
        })
        .returning(listColumns)
        .executeTakeFirstOrThrow();
    },

    /** A person's own keys (not their organisations'), newest first; revoked ones too, so the list shows them. */
    async listOfUser(userId: string) {
      return db
        .selectFrom('api_keys')
        .select(listColumns)
        .where('user_id', '=', userId)
        .where('organization_id', 'is', null)
        .orderBy('created_at', 'desc')
        .execute();
    },

    async listOfOrganization(orgId: string) {
      return db
        .selectFrom('api_keys')
        .select(listColumns)
        .where('organization_id', '=', orgId)
        .orderBy('created_at', 'desc')
        .execute();
    },

    /** Revokes a key at once; the row as it is now, or undefined when there is no such key for this owner. */
    async revoke(id: string, owner: { userId: string } | { organizationId: string }) {
      let query = db.updateTable('api_keys').set({ revoked_at: sql`coalesce(revoked_at, now())` }).where('id', '=', id);
      query =
        'userId' in owner
          ? query.where('user_id', '=', owner.userId).where('organization_id', 'is', null)
          : query.where('organization_id', '=', owner.organizationId);
      return query.returning(listColumns).executeTakeFirst();
    },

    /** The key a bearer value names by its prefix, if it is still usable. */
    async findUsable(prefix: string) {
      return db
        .selectFrom('api_keys')
        .select(['id', 'user_id', 'organization_id', 'key_hash', 'scopes', 'prefix'])
        .where('prefix', '=', prefix)
        .where('revoked_at', 'is', null)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
        .executeTakeFirst();
    },

    /**
     * Records the last use. At most one write a minute per key from one address: a busy integration calling many times
     * a second would otherwise turn every read into a write of the same row.
     */
    async touch(id: string, ip: string) {
      await db
        .updateTable('api_keys')
        .set({ last_used_at: sql`now()`, last_used_ip: ip })
        .where('id', '=', id)
        .where((eb) =>
          eb.or([
            eb('last_used_at', 'is', null),
            eb('last_used_at', '<', sql<Date>`now() - interval '1 minute'`),
            eb('last_used_ip', 'is distinct from', ip),
          ]),
        )
        .execute();
    },
  };
}
