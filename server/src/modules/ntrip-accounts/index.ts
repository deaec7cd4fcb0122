import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/client.ts';
import { createNtripAccountsRepo } from './ntrip-accounts.repo.ts';
import { ntripAccountsRoutes } from './ntrip-accounts.routes.ts';
import { createNtripAccountsService, type NtripAccountsServiceDeps } from './ntrip-accounts.service.ts';

export type { CasterAddress } from './connection-test.ts';
export { canAdministerAccounts, canManageAccount } from './ntrip-accounts.policy.ts';
export { createNtripAccountsRepo, type SubscriptionGrantState } from './ntrip-accounts.repo.ts';
export type {
  AccessChangeListener,
  AccessChangeReason,
  ConnectionTestSettings,
  LiveConnections,
  TokenSpender,
} from './ntrip-accounts.service.ts';

/** What the module is given; it builds its own repo. */
export type NtripAccountsOptions = Omit<NtripAccountsServiceDeps, 'repo'>;

export function createNtripAccountsModule(deps: NtripAccountsOptions & { db: Database }) {
  const { db, ...options } = deps;
  const service = createNtripAccountsService({ repo: createNtripAccountsRepo(db), ...options });
  return {
    service,
    /** What account deletion does to NTRIP accounts (soft-deleted, their grants ended) in its transaction. */
    deletion: {
      deleteAllOfOwner: (userId: string, now: Date, trx: Database) =>
        createNtripAccountsRepo(trx).deleteAllOfOwner(userId, now, trx),
      deleteAllOfOrganization: (orgId: string, now: Date, trx: Database) =>
        createNtripAccountsRepo(trx).deleteAllOfOrganization(orgId, now, trx),
    },
    routes: ntripAccountsRoutes(service) as FastifyPluginAsync,
  };
}
