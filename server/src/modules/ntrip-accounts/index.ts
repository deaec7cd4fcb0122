import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/client.ts';
import { createNtripAccountsRepo } from './ntrip-accounts.repo.ts';
import { ntripAccountsRoutes } from './ntrip-accounts.routes.ts';
import {
  type AccessChangeListener,
  type ConnectionTestSettings,
  createNtripAccountsService,
  type LiveConnections,
  type OrganizationTokenSpender,
  type TokenSpender,
} from './ntrip-accounts.service.ts';

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

export interface NtripAccountsOptions {
  ledger: TokenSpender;
  /** The organisations' tokens, which pay for their accounts' activations. */
  organizationLedger?: OrganizationTokenSpender;
  /** The ntrip module's cache invalidation (and the caster's disconnect of what is no longer allowed). */
  access?: AccessChangeListener;
  /** The running caster's connection count per account. */
  live?: LiveConnections;
  /** Where the connection test reaches the caster; without it the test answers caster_unreachable. */
  connectionTest?: ConnectionTestSettings;
  clock?: () => Date;
}

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
