import type { FastifyPluginAsync } from 'fastify';
import { accountDeletionRoutes } from './account-deletion.routes.ts';
import { type AccountDeletionDeps, createAccountDeletion } from './account-deletion.service.ts';

export type { AccountDeletionDeps } from './account-deletion.service.ts';

/** Account and organisation deletion (docs/adr/0096): above the modules it spans, which it is handed. */
export function createAccountDeletionModule(deps: AccountDeletionDeps) {
  const service = createAccountDeletion(deps);
  return { service, routes: accountDeletionRoutes(service) as FastifyPluginAsync };
}
