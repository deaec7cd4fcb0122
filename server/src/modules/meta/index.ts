import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/client.ts';
import { createMetaRepo } from './meta.repo.ts';
import { metaRoutes } from './meta.routes.ts';

export { registerCrawlerFiles } from './crawlers.routes.ts';

/** What the portal says about itself: its build and health, and the crawlers' files. */
export function createMetaModule(deps: { db: Database }) {
  return { routes: metaRoutes(createMetaRepo(deps.db)) as FastifyPluginAsync };
}
