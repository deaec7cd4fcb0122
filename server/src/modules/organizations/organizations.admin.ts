import {
  type AdminOrganizationDetail,
  type AdminSubscription,
  adminOrganizationDetailSchema,
  adminOrganizationPatchSchema,
  adminOrganizationSummarySchema,
  type NtripAccount,
  organizationParamsSchema,
} from '@portal/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client.ts';
import { AppError, notFound } from '../../shared/errors.ts';
import { iso } from '../../shared/iso.ts';
import { auditWho, recordAudit } from '../audit/index.ts';
import { readSettings } from '../settings/index.ts';
import { inviteExpired } from './organizations.policy.ts';
import { createOrganizationsRepo } from './organizations.repo.ts';

/** The back office's reads and writes of organisations (issue 20); the members' own calls stay in the service. */
export function createOrganizationsAdminRepo(db: Database) {
  const members = createOrganizationsRepo(db);
  return {
    /** The portal settings in force (the invite lifetime, docs/adr/0028). */
    settings: () => readSettings(db),
    transaction<T>(fn: (trx: Database) => Promise<T>): Promise<T> {
      return db.transaction().execute(fn);
    },
    async find(orgId: string, trx: Database = db, forUpdate = false) {
      const q = trx
        .selectFrom('organizations')
        .select(['id', 'name', 'created_at', 'disabled_at'])
        .where('id', '=', orgId);
      return (forUpdate ? q.forUpdate() : q).executeTakeFirst();
    },
    async setDisabled(orgId: string, disabled: boolean, trx: Database) {
      return trx
        .updateTable('organizations')
        .set({ disabled_at: disabled ? new Date() : null })
        .where('id', '=', orgId)
        .returning(['id', 'name', 'created_at', 'disabled_at'])
        .executeTakeFirstOrThrow();
    },
    async isDisabled(orgId: string): Promise<boolean> {
      const row = await db.selectFrom('organizations').select('disabled_at').where('id', '=', orgId).executeTakeFirst();
      return Boolean(row?.disabled_at);
    },
    /** The members as their organisation's page lists them. */
    members: members.members,
    async invites(orgId: string) {
      return db
        .selectFrom('organization_invites')
        .select(['email', 'status', 'invited_by', 'accepted_by', 'created_at', 'updated_at'])
        .where('organization_id', '=', orgId)
        .orderBy('created_at', 'desc')
        .execute();
    },
  };
}

type AdminRepo = ReturnType<typeof createOrganizationsAdminRepo>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const organizationDisabled = () =>
  new AppError(403, 'organization_disabled', 'This organisation has been disabled by the operator of the portal.');

/**
 * Refuses every organisation call (`/org/:orgId/…`) of a disabled organisation to its members; admins still reach
 * it. A hook on the API scope, so the organisation, billing and account routes need not each ask.
 */
export function disabledOrganizationGuard(repo: AdminRepo) {
  return async (request: FastifyRequest) => {
    const orgId = (request.params as { orgId?: unknown } | undefined)?.orgId;
    // Not an id: the route's own validation answers it.
    if (typeof orgId !== 'string' || !UUID.test(orgId) || !request.actor || request.actor.isAdmin) return;
    if (await repo.isDisabled(orgId)) throw organizationDisabled();
  };
}

/**
 * GET and PATCH /admin/organizations/:orgId: members and roles, invites, subscriptions, NTRIP accounts; disable or
 * enable. The subscriptions and accounts come from the modules that own them.
 */
export function organizationsAdminRoutes(
  repo: AdminRepo,
  subscriptionsOf: (orgId: string) => Promise<AdminSubscription[]>,
  accountsOf: (orgId: string, name: string) => Promise<NtripAccount[]>,
): FastifyPluginAsyncZod {
  const presentOrganization = (o: NonNullable<Awaited<ReturnType<AdminRepo['find']>>>) => ({
    id: o.id,
    name: o.name,
    createdAt: iso(o.created_at),
    disabledAt: o.disabled_at ? iso(o.disabled_at) : null,
  });
  return async (app) => {
    app.get(
      '/admin/organizations/:orgId',
      {
        config: { auth: 'admin' },
        schema: { tags: ['admin'], params: organizationParamsSchema, response: { 200: adminOrganizationDetailSchema } },
      },
      async (request): Promise<AdminOrganizationDetail> => {
        const { orgId } = request.params;
        const org = await repo.find(orgId);
        if (!org) throw notFound('Organisation');
        const [members, invites, subscriptions, ntripAccounts, settings] = await Promise.all([
          repo.members(orgId),
          repo.invites(orgId),
          subscriptionsOf(orgId),
          accountsOf(orgId, org.name),
          repo.settings(),
        ]);
        const lifetimeDays = settings.inviteLifetimeDays;
        return {
          organization: presentOrganization(org),
          members: members.map((m) => ({
            userId: m.user_id,
            email: m.email,
            displayName: m.display_name,
            role: m.role,
            joinedAt: iso(m.joined_at),
          })),
          invites: invites.map((i) => ({
            email: i.email,
            status:
              i.status === 'pending' && inviteExpired(i, lifetimeDays, new Date()) ? ('expired' as const) : i.status,
            invitedBy: i.invited_by,
            acceptedBy: i.accepted_by,
            createdAt: iso(i.created_at),
          })),
          subscriptions,
          ntripAccounts,
        };
      },
    );

    app.patch(
      '/admin/organizations/:orgId',
      {
        config: { auth: 'admin' },
        schema: {
          tags: ['admin'],
          params: organizationParamsSchema,
          body: adminOrganizationPatchSchema,
          response: { 200: adminOrganizationSummarySchema },
        },
      },
      async (request) => {
        const { orgId } = request.params;
        return repo.transaction(async (trx) => {
          const before = await repo.find(orgId, trx, true);
          if (!before) throw notFound('Organisation');
          // Disabling twice keeps the first moment: the entry would otherwise rewrite when it happened.
          const after =
            Boolean(before.disabled_at) === request.body.disabled
              ? before
              : await repo.setDisabled(orgId, request.body.disabled, trx);
          await recordAudit(trx, {
            ...auditWho(request),
            action: request.body.disabled ? 'organization.disable' : 'organization.enable',
            target: { type: 'organization', id: orgId },
            before: presentOrganization(before),
            after: presentOrganization(after),
          });
          return presentOrganization(after);
        });
      },
    );
  };
}
