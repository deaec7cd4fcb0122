import type { AdminSubscription, NtripAccount } from '@portal/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/client.ts';
import {
  createOrganizationsAdminRepo,
  disabledOrganizationGuard,
  organizationsAdminRoutes,
} from './organizations.admin.ts';
import { createOrganizationLedger } from './organizations.ledger.ts';
import { createOrganizationsRepo } from './organizations.repo.ts';
import { organizationsRoutes } from './organizations.routes.ts';
import {
  type AccessChanges,
  createOrganizationsService,
  type OrganizationsService,
  type PersonalTokens,
} from './organizations.service.ts';

export type { OrganizationLedger } from './organizations.ledger.ts';
export { canManageOrganization } from './organizations.policy.ts';
export { activeOrganizationIdsOf, createOrganizationsRepo } from './organizations.repo.ts';
export type { OrganizationDeletion, OrganizationsService } from './organizations.service.ts';

export interface OrganizationsModuleDeps {
  db: Database;
  publicUrl: string;
  /** Queues the invitation and membership mails in the same transaction as the change (the mail module). */
  mailer?: Parameters<typeof createOrganizationsService>[0]['mailer'];
  /** The personal token ledger (billing's), for transfers to an organisation. */
  tokens?: PersonalTokens;
  /** The caster's side, told when a member loses an organisation's accounts. */
  access?: AccessChanges;
}

/** Organisations: members, invites, their token balance; the admin's list and the disabled-organisation guard. */
export function createOrganizationsModule(deps: OrganizationsModuleDeps) {
  const service: OrganizationsService = createOrganizationsService({
    repo: createOrganizationsRepo(deps.db),
    publicUrl: deps.publicUrl,
    mailer: deps.mailer,
    tokens: deps.tokens,
    access: deps.access,
  });
  const admin = createOrganizationsAdminRepo(deps.db);
  return {
    service,
    /** The organisation's tokens as other modules spend them, in their own transaction. */
    ledger: createOrganizationLedger(deps.db),
    /** A disabled organisation's members are refused its /org/:orgId calls. */
    disabledGuard: disabledOrganizationGuard(admin),
    /** What account deletion does to organisations, each in the deletion's transaction. */
    deletion: {
      ownedWithOthers: (userId: string, trx: Database) => createOrganizationsRepo(trx).ownedWithOthers(userId),
      deleteOrganization: (orgId: string, trx: Database) => createOrganizationsRepo(trx).deleteOrganization(orgId),
      deleteForUser: (userId: string, email: string | null, trx: Database) =>
        createOrganizationsRepo(trx).deleteForUser(userId, email),
      remove: service.remove,
    },
    routes: organizationsRoutes(service) as FastifyPluginAsync,
    /** The back office's organisation pages, with the subscriptions and accounts the modules above hold. */
    adminRoutes: (sources: {
      subscriptionsOf(orgId: string): Promise<AdminSubscription[]>;
      accountsOf(orgId: string, name: string): Promise<NtripAccount[]>;
    }) => organizationsAdminRoutes(admin, sources.subscriptionsOf, sources.accountsOf) as FastifyPluginAsync,
  };
}
