import type { Team } from '@portal/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { Actor } from '../../shared/actor.ts';
import { createAccountRepo } from './account.repo.ts';
import { createAccountService } from './account.service.ts';
import { adminUsersRoutes, type CustomerSources } from './users.admin.routes.ts';
import { createUsersRepo } from './users.repo.ts';
import { usersRoutes } from './users.routes.ts';

export type { CustomerSources } from './users.admin.routes.ts';
export { createUsersRepo, type UsersRepo, userEmailOf } from './users.repo.ts';

export interface UsersModuleDeps {
  db: Database;
  /** PUBLIC_URL: photo addresses are built on it. */
  publicUrl: string;
}

/** The portal's users: who signs in, their photo and terms acceptance, and the back office's user pages. */
export function createUsersModule(deps: UsersModuleDeps) {
  const repo = createUsersRepo(deps.db);
  const accountRepo = createAccountRepo(deps.db);
  const account = createAccountService({ repo: accountRepo });
  return {
    repo,
    /** What account deletion does to the users row, in the deletion's transaction. */
    deletion: {
      emailOf: (userId: string, trx: Database) => accountRepo.emailOf(userId, trx),
      anonymise: (userId: string, now: Date, trx: Database) => accountRepo.anonymise(userId, now, trx),
    },
    /** The user's own routes; their teams come from the organisations module. */
    routes: (sources: { teamsOf(actor: Actor): Promise<Team[]> }) =>
      usersRoutes({ teamsOf: sources.teamsOf, users: repo, account, publicUrl: deps.publicUrl }) as FastifyPluginAsync,
    /** The back office's customer pages, with what billing, organisations and NTRIP accounts hold of a user. */
    adminRoutes: (sources: CustomerSources) => adminUsersRoutes(repo, sources) as FastifyPluginAsync,
  };
}
