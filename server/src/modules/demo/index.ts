import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/client.ts';
import { createDemoRepo } from './demo.repo.ts';
import { demoRoutes } from './demo.routes.ts';

/** Demo requests: the form's answers, and their deletion with the person's account. */
export function createDemoModule(deps: { db: Database }) {
  const repo = createDemoRepo(deps.db);
  return {
    deletion: { deleteForUser: (userId: string, trx: Database) => repo.deleteForUser(userId, trx) },
    routes: demoRoutes(repo) as FastifyPluginAsync,
  };
}
