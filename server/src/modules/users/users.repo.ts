import { type RawBuilder, sql } from 'kysely';
import type { Database } from '../../db/client.ts';
import { conflict } from '../../shared/errors.ts';
import type { SignUpClaim, VerifiedIdentity } from '../../shared/identity.ts';
// The terms tables' row types join the shared DB from here too (auth reads them on every request).
import type {} from '../settings/index.ts';

export type UsersRepo = ReturnType<typeof createUsersRepo>;

/** What a request's authentication reads of its user. */
const identityColumns = [
  'id',
  'firebase_uid',
  'email',
  'is_admin',
  'disabled',
  'terms_accepted_at',
  'terms_version',
  // The latest published terms, in the same statement: a user who accepted an older version is asked again.
  sql<number | null>`(SELECT max(version) FROM legal_documents WHERE kind = 'terms')`.as('current_terms_version'),
] as const;

const adminColumns = ['id', 'email', 'display_name', 'is_admin', 'disabled', 'created_at'] as const;

/** The e-mail of the user `userId` names, as an expression other modules put beside their own rows. */
export function userEmailOf(userId: RawBuilder<unknown>): RawBuilder<string | null> {
  return sql<string | null>`(SELECT email FROM users WHERE id = ${userId})`;
}

export function createUsersRepo(db: Database) {
  return {
    /**
     * One statement per authenticated request of a known user: refreshes the profile fields only when the token says
     * something new, and returns the flags the request needs. A user seen for the first time is created only once
     * `mayCreate` has passed (sign-up, docs/adr/0033); it throws to refuse.
     */
    async upsertFromIdentity(
      identity: VerifiedIdentity,
      mayCreate: (trx: Database) => Promise<SignUpClaim | undefined> = async () => undefined,
    ) {
      const known = await db
        .updateTable('users')
        .set({
          email: sql`coalesce(${identity.email ?? null}::text, users.email)`,
          display_name: sql`coalesce(${identity.name ?? null}::text, users.display_name)`,
          photo_url: sql`coalesce(${identity.picture ?? null}::text, users.photo_url)`,
          updated_at: sql`now()`,
        })
        .where('firebase_uid', '=', identity.uid)
        // A disabled (or deleted and anonymised) account never gets its profile back from a token.
        .where('users.disabled', '=', false)
        .returning(identityColumns)
        .executeTakeFirst();
      if (known) return known;
      const disabled = await db
        .selectFrom('users')
        .select(identityColumns)
        .where('firebase_uid', '=', identity.uid)
        .executeTakeFirst();
      if (disabled) return disabled;
      // One transaction: what the admission spends (an invite link's one sign-up) is spent with the row it admits.
      return db.transaction().execute(async (trx) => {
        const claim = await mayCreate(trx);
        // Two first calls at once: the second finds the row the first inserted.
        const row = await trx
          .insertInto('users')
          .values({
            firebase_uid: identity.uid,
            email: identity.email ?? null,
            display_name: identity.name ?? null,
            photo_url: identity.picture ?? null,
          })
          .onConflict((oc) => oc.column('firebase_uid').doUpdateSet({ updated_at: sql`now()` }))
          .returning(identityColumns)
          .executeTakeFirstOrThrow();
        await claim?.(row.id);
        return row;
      });
    },

    /**
     * Records the caller's acceptance of the latest published terms (or, before any was published, of the terms
     * in force), keeping the first moment: accepting again (a retry, a second tab) answers the moment recorded.
     * Who accepted which version is kept in terms_acceptances.
     */
    /** The user an API key acts for, with the flags a request needs (as upsertFromIdentity returns them). */
    async findIdentity(userId: string) {
      return db.selectFrom('users').select(identityColumns).where('id', '=', userId).executeTakeFirst();
    },

    async acceptTerms(userId: string, shown?: number) {
      return db.transaction().execute(async (trx) => {
        const current = await trx
          .selectFrom('legal_documents')
          .select(['id', 'version'])
          .where('kind', '=', 'terms')
          .orderBy('version', 'desc')
          .limit(1)
          .executeTakeFirst();
        const version = current?.version ?? null;
        if (shown !== undefined && shown !== version) {
          throw conflict(
            'terms_changed',
            `The terms changed: version ${version ?? 'none'} is in force now. Read it and accept again.`,
          );
        }
        const row = await trx
          .updateTable('users')
          .set({
            terms_accepted_at: sql<Date>`CASE WHEN users.terms_accepted_at IS NOT NULL
              AND users.terms_version IS NOT DISTINCT FROM ${version}::int THEN users.terms_accepted_at ELSE now() END`,
            terms_version: version,
          })
          .where('id', '=', userId)
          .returning('terms_accepted_at')
          .executeTakeFirstOrThrow();
        const acceptedAt = row.terms_accepted_at as Date;
        if (current) {
          await trx
            .insertInto('terms_acceptances')
            .values({ document_id: current.id, user_id: userId, accepted_at: acceptedAt })
            .onConflict((oc) => oc.doNothing())
            .execute();
        }
        return acceptedAt;
      });
    },

    async emailOf(userId: string): Promise<string | null> {
      const row = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
      return row?.email ?? null;
    },

    /**
     * Holds the user's row until the transaction ends, so one user's changes that count something (their NTRIP
     * accounts, the organisations they own) run one after the other; false when there is no such user.
     */
    async lockUser(userId: string): Promise<boolean> {
      const row = await db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();
      return row !== undefined;
    },

    async findByEmail(email: string) {
      return db.selectFrom('users').selectAll().where(sql`lower(email)`, '=', email.toLowerCase()).executeTakeFirst();
    },

    async list(query: { search?: string; limit: number; offset: number }) {
      let q = db.selectFrom('users');
      if (query.search) {
        const pattern = `%${query.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        q = q.where((eb) =>
          eb.or([eb(sql`lower(email)`, 'like', pattern), eb(sql`lower(display_name)`, 'like', pattern)]),
        );
      }
      const [items, total] = await Promise.all([
        q
          .select(adminColumns)
          .orderBy('created_at', 'desc')
          .orderBy('id')
          .limit(query.limit)
          .offset(query.offset)
          .execute(),
        q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { items, total: Number(total.n) };
    },

    transaction<T>(fn: (trx: Database) => Promise<T>): Promise<T> {
      return db.transaction().execute(fn);
    },

    /** The back office's view of one user, locked for the change that follows when `forUpdate`. */
    async findAdminView(userId: string, trx: Database = db, forUpdate = false) {
      const q = trx
        .selectFrom('users')
        .select([...adminColumns, 'terms_accepted_at'])
        .where('id', '=', userId);
      return (forUpdate ? q.forUpdate() : q).executeTakeFirst();
    },

    async updateFlags(userId: string, flags: { isAdmin?: boolean; disabled?: boolean }, trx: Database = db) {
      return trx
        .updateTable('users')
        .set({
          ...(flags.isAdmin !== undefined && { is_admin: flags.isAdmin }),
          ...(flags.disabled !== undefined && { disabled: flags.disabled }),
          updated_at: new Date(),
        })
        .where('id', '=', userId)
        .returning(adminColumns)
        .executeTakeFirst();
    },

    async setAdmin(userId: string, isAdmin: boolean) {
      await db
        .updateTable('users')
        .set({ is_admin: isAdmin, updated_at: new Date() })
        .where('id', '=', userId)
        .execute();
    },
  };
}
