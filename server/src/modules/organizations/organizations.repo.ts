import type { InviteStatus } from '@portal/contract';
import { type RawBuilder, sql } from 'kysely';
import type { Database } from '../../db/client.ts';
import type { OrganizationMembersTable } from '../../db/schema.ts';
import { readSettings } from '../settings/index.ts';

type Role = OrganizationMembersTable['role'];
export type OrganizationsQueries = ReturnType<typeof organizationsQueries>;
export type OrganizationsRepo = ReturnType<typeof createOrganizationsRepo>;

/**
 * The organisations `userId` is a member of and that are not disabled, as a subquery of ids: their all-accounts
 * grants cover the member's personal NTRIP accounts (docs/adr/0010, 0026).
 */
export function activeOrganizationIdsOf(userId: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`SELECT m.organization_id FROM organization_members m
    JOIN organizations o ON o.id = m.organization_id AND o.disabled_at IS NULL
    WHERE m.user_id = ${userId}`;
}

export function createOrganizationsRepo(db: Database) {
  return {
    ...organizationsQueries(db),
    /** `trx` is the same transaction, for other modules' writes in it (the mail an invite queues, the token ledger). */
    transaction: <T>(fn: (tx: OrganizationsQueries, trx: Database) => Promise<T>) =>
      db.transaction().execute((trx) => fn(organizationsQueries(trx), trx)),
    /** The same queries in a transaction another module opened (the sign-up that creates a user). */
    within: (trx: Database) => organizationsQueries(trx),
  };
}

function organizationsQueries(db: Database) {
  return {
    /** The portal settings in force, read in this transaction (docs/adr/0028). */
    settings: () => readSettings(db),
    async lockUser(userId: string) {
      await db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
    },
    async countOwnedBy(userId: string) {
      const row = await db
        .selectFrom('organization_members')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('role', '=', 'owner')
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async nameTaken(name: string) {
      const row = await db
        .selectFrom('organizations')
        .select('id')
        .where(sql`lower(name)`, '=', name.toLowerCase())
        .executeTakeFirst();
      return row !== undefined;
    },
    async create(name: string, ownerId: string) {
      const org = await db
        .insertInto('organizations')
        .values({ name, created_by: ownerId })
        .returning(['id', 'name'])
        .executeTakeFirstOrThrow();
      await db
        .insertInto('organization_members')
        .values({ organization_id: org.id, user_id: ownerId, role: 'owner' })
        .execute();
      return org;
    },
    async teamsOf(userId: string) {
      return db
        .selectFrom('organization_members as m')
        .innerJoin('organizations as o', 'o.id', 'm.organization_id')
        .select(['o.id', 'o.name', 'm.role'])
        .where('m.user_id', '=', userId)
        .orderBy('o.name')
        .execute();
    },
    /**
     * Holds the organisation's row until the transaction ends. Every change of its members, roles, name, tokens or
     * existence takes it first, so such changes run one after another and the owner count read after it stays true.
     */
    async lockOrganization(orgId: string) {
      return db
        .selectFrom('organizations')
        .select(['id', 'name', 'token_balance'])
        .where('id', '=', orgId)
        .forUpdate()
        .executeTakeFirst();
    },
    async countOwners(orgId: string) {
      const row = await db
        .selectFrom('organization_members')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('organization_id', '=', orgId)
        .where('role', '=', 'owner')
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async removeMember(orgId: string, userId: string) {
      await db
        .deleteFrom('organization_members')
        .where('organization_id', '=', orgId)
        .where('user_id', '=', userId)
        .execute();
    },
    async rename(orgId: string, name: string) {
      await db.updateTable('organizations').set({ name }).where('id', '=', orgId).execute();
    },
    async nameTakenByOther(orgId: string, name: string) {
      const row = await db
        .selectFrom('organizations')
        .select('id')
        .where(sql`lower(name)`, '=', name.toLowerCase())
        .where('id', '!=', orgId)
        .executeTakeFirst();
      return row !== undefined;
    },
    /** Organisations the user owns, with how many other members and other owners each has. */
    async ownedWithOthers(userId: string) {
      return db
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
    /** Account deletion: the user leaves every organisation, and invites to their address go. */
    async deleteForUser(userId: string, email: string | null) {
      await db.deleteFrom('organization_members').where('user_id', '=', userId).execute();
      if (email) {
        await db.deleteFrom('organization_invites').where(sql`lower(email)`, '=', email.toLowerCase()).execute();
      }
    },
    async deleteOrganization(orgId: string) {
      await db.deleteFrom('organizations').where('id', '=', orgId).execute();
    },
    /** The organisation's live accounts a member uses: the caster must drop their connections when they go. */
    async accountsHeldBy(orgId: string, userId: string) {
      return db
        .selectFrom('ntrip_accounts')
        .select(['id', 'owner_user_id'])
        .where('organization_id', '=', orgId)
        .where('owner_user_id', '=', userId)
        .where('deleted_at', 'is', null)
        .execute();
    },
    async appendTokens(entry: {
      orgId: string;
      kind: 'transfer_in' | 'activation_spend';
      delta: number;
      balanceAfter: number;
      referenceId: string | null;
      note: string | null;
      createdBy: string | null;
    }) {
      await db
        .insertInto('organization_token_ledger')
        .values({
          organization_id: entry.orgId,
          kind: entry.kind,
          delta: entry.delta,
          balance_after: entry.balanceAfter,
          reference_id: entry.referenceId,
          note: entry.note,
          created_by: entry.createdBy,
        })
        .execute();
      await db
        .updateTable('organizations')
        .set({ token_balance: entry.balanceAfter })
        .where('id', '=', entry.orgId)
        .execute();
    },
    /**
     * The organisation's name and whether it is disabled, with the user's role in it (null: not a member).
     * `lock` takes the organisation's row lock first, as every membership change does, so a demotion or removal is
     * wholly before or after the caller's change.
     */
    async membership(
      orgId: string,
      userId: string,
      lock = false,
    ): Promise<{ name: string; disabled: boolean; role: Role | null } | undefined> {
      const q = db
        .selectFrom('organizations')
        .select(['name', sql<boolean>`disabled_at IS NOT NULL`.as('disabled')])
        .where('id', '=', orgId);
      const org = await (lock ? q.forUpdate() : q).executeTakeFirst();
      if (org === undefined) return undefined;
      const member = await db
        .selectFrom('organization_members')
        .select('role')
        .where('organization_id', '=', orgId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return { name: org.name, disabled: org.disabled, role: member?.role ?? null };
    },
    async roleOf(orgId: string, userId: string): Promise<Role | undefined> {
      const row = await db
        .selectFrom('organization_members')
        .select('role')
        .where('organization_id', '=', orgId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row?.role;
    },
    async find(orgId: string) {
      return db
        .selectFrom('organizations as o')
        .select((eb) => [
          'o.id',
          'o.name',
          'o.created_at',
          'o.token_balance',
          eb
            .selectFrom('organization_members')
            .select((e) => e.fn.countAll<number>().as('n'))
            .whereRef('organization_id', '=', 'o.id')
            .as('member_count'),
        ])
        .where('o.id', '=', orgId)
        .executeTakeFirst();
    },
    async members(orgId: string) {
      return db
        .selectFrom('organization_members as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select(['m.user_id', 'u.email', 'u.display_name', 'm.role', 'm.joined_at'])
        .where('m.organization_id', '=', orgId)
        .orderBy('m.joined_at')
        .execute();
    },
    async setRole(orgId: string, userId: string, role: Role) {
      await db
        .updateTable('organization_members')
        .set({ role })
        .where('organization_id', '=', orgId)
        .where('user_id', '=', userId)
        .execute();
    },
    async isMemberByEmail(orgId: string, email: string) {
      const row = await db
        .selectFrom('organization_members as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select('m.user_id')
        .where('m.organization_id', '=', orgId)
        .where(sql`lower(u.email)`, '=', email)
        .executeTakeFirst();
      return row !== undefined;
    },
    async invites(orgId: string) {
      return db
        .selectFrom('organization_invites as i')
        .leftJoin('users as u', 'u.id', 'i.invited_by')
        .leftJoin('users as a', 'a.id', 'i.accepted_by')
        .select([
          'i.email',
          'i.status',
          'u.email as invited_by',
          'a.email as accepted_by',
          'i.created_at',
          'i.updated_at',
        ])
        .where('i.organization_id', '=', orgId)
        .orderBy('i.created_at', 'desc')
        .execute();
    },
    async findInvite(orgId: string, email: string) {
      return db
        .selectFrom('organization_invites')
        .selectAll()
        .where('organization_id', '=', orgId)
        .where('email', '=', email)
        .executeTakeFirst();
    },
    /** A declined or revoked invitation can be sent again; it starts over as pending, with a new link. */
    async upsertInvite(orgId: string, email: string, invitedBy: string, tokenHash: string) {
      await db
        .insertInto('organization_invites')
        .values({ organization_id: orgId, email, invited_by: invitedBy, token_hash: tokenHash })
        .onConflict((oc) =>
          oc.columns(['organization_id', 'email']).doUpdateSet({
            status: 'pending',
            invited_by: invitedBy,
            token_hash: tokenHash,
            accepted_by: null,
            updated_at: sql`now()`,
          }),
        )
        .execute();
    },
    /** What an invite link names, for its page: the organisation and who invited (no lock: it only reads). */
    async inviteByToken(tokenHash: string) {
      return db
        .selectFrom('organization_invites as i')
        .innerJoin('organizations as o', 'o.id', 'i.organization_id')
        .leftJoin('users as u', 'u.id', 'i.invited_by')
        .select(['i.status', 'i.updated_at', 'o.name', 'u.display_name as inviter_name', 'u.email as inviter_email'])
        .where('i.token_hash', '=', tokenHash)
        .executeTakeFirst();
    },
    /** Locks the invite a link opens, so two uses of one link are answered one after the other. */
    async lockInviteByToken(tokenHash: string) {
      return db
        .selectFrom('organization_invites as i')
        .innerJoin('organizations as o', 'o.id', 'i.organization_id')
        .select(['i.organization_id', 'i.email', 'i.status', 'i.updated_at', 'o.name'])
        .where('i.token_hash', '=', tokenHash)
        .forUpdate('i')
        .executeTakeFirst();
    },
    /**
     * Locks the invite a link opens for a sign-up, with the Firebase identity its link already let sign up, if any:
     * two newcomers with one link are answered one after the other (issue 31).
     */
    async lockInviteForSignUp(tokenHash: string) {
      return db
        .selectFrom('organization_invites as i')
        .leftJoin('users as u', 'u.id', 'i.signed_up_user_id')
        .select(['i.status', 'i.updated_at', 'i.signed_up_user_id', 'u.firebase_uid as signed_up_uid'])
        .where('i.token_hash', '=', tokenHash)
        .forUpdate('i')
        .executeTakeFirst();
    },
    async spendInviteSignUp(tokenHash: string, userId: string) {
      await db
        .updateTable('organization_invites')
        .set({ signed_up_user_id: userId })
        .where('token_hash', '=', tokenHash)
        .execute();
    },
    /** Only a pending invite is revoked; its link is kept so that opening it says so. */
    async revokeInvite(orgId: string, email: string) {
      const result = await db
        .updateTable('organization_invites')
        .set({ status: 'revoked', updated_at: sql`now()` })
        .where('organization_id', '=', orgId)
        .where('email', '=', email)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async invitesFor(email: string) {
      return db
        .selectFrom('organization_invites as i')
        .innerJoin('organizations as o', 'o.id', 'i.organization_id')
        .select(['o.id', 'o.name', 'i.status', 'i.created_at', 'i.updated_at'])
        .where('i.email', '=', email)
        .where('i.status', 'in', ['pending', 'declined'])
        .orderBy('i.created_at', 'desc')
        .execute();
    },
    /** Accepting records who joined and spends the link, whichever way the invite was accepted. */
    async setInviteStatus(orgId: string, email: string, status: InviteStatus, acceptedBy?: string) {
      await db
        .updateTable('organization_invites')
        .set({
          status,
          updated_at: sql`now()`,
          ...(status === 'accepted' && { accepted_by: acceptedBy ?? null, token_hash: null }),
        })
        .where('organization_id', '=', orgId)
        .where('email', '=', email)
        .execute();
    },
    async listAll() {
      return db
        .selectFrom('organizations as o')
        .leftJoin('organization_members as owner', (join) =>
          join.onRef('owner.organization_id', '=', 'o.id').on('owner.role', '=', 'owner'),
        )
        .leftJoin('users as u', 'u.id', 'owner.user_id')
        .select((eb) => [
          'o.id',
          'o.name',
          'o.created_at',
          'u.email as owner_email',
          eb
            .selectFrom('organization_members')
            .select((e) => e.fn.countAll<number>().as('n'))
            .whereRef('organization_id', '=', 'o.id')
            .as('member_count'),
        ])
        .orderBy('o.created_at', 'desc')
        .execute();
    },
    async addMember(orgId: string, userId: string) {
      await db
        .insertInto('organization_members')
        .values({ organization_id: orgId, user_id: userId, role: 'member' })
        .onConflict((oc) => oc.doNothing())
        .execute();
    },
  };
}
