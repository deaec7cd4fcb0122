import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/client.ts';
import { createCatalogueRepo } from './catalogue.repo.ts';
import { catalogueRoutes } from './catalogue.routes.ts';
import { createCatalogueService } from './catalogue.service.ts';
import { createIntegrityModule } from './integrity.routes.ts';

export { createCatalogueRepo } from './catalogue.repo.ts';
export { createFeedCipher } from './feed-secrets.ts';

/** The catalogue: networks, stations, feeds and the sourcetable, and the stations' integrity reports. */
export function createCatalogueModule(deps: { db: Database; feedSecretKey: string }) {
  const service = createCatalogueService({ repo: createCatalogueRepo(deps.db) });
  const routes = catalogueRoutes(deps) as FastifyPluginAsync;
  return { service, routes, integrityRoutes: createIntegrityModule({ db: deps.db, catalogue: service }).routes };
}
