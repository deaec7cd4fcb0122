import type { InviteStatus } from '@portal/contract';
import { sql } from 'kysely';
import type { Database } from '../../db/client.ts';
import type { OrganizationMembersTable } from '../../db/schema.ts';
import { readSettings } from '../settings/index.ts';

type Role = OrganizationMembersTable['role'];
export type OrganizationsQueries = ReturnType<typeof organizationsQueries>;
export type OrganizationsRepo = ReturnType<typeof createOrganizationsRepo>;

export function createOrganizationsRepo(db: Database) {
  return {
    ...organizationsQueries(db),
    /** `trx` is for other modules' writes in the same transaction (the mail an invite queues). */
    transaction: <T>(fn: (tx: OrganizationsQueries, trx: Database) => Promise<T>) =>
      db.transaction().execute((trx) => fn(organizationsQueries(trx), trx)),
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
        .select(['i.email', 'i.status', 'u.email as invited_by', 'a.email as accepted_by', 'i.created_at'])
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
    async deleteInvite(orgId: string, email: string) {
      const result = await db
        .deleteFrom('organization_invites')
        .where('organization_id', '=', orgId)
        .where('email', '=', email)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async invitesFor(email: string) {
      return db
        .selectFrom('organization_invites as i')
        .innerJoin('organizations as o', 'o.id', 'i.organization_id')
        .select(['o.id', 'o.name', 'i.status', 'i.created_at'])
        .where('i.email', '=', email)
        .where('i.status', '!=', 'accepted')
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
