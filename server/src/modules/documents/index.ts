import type { Database } from '../../db/client.ts';
import { createDocumentsRepo } from './documents.repo.ts';
import { documentsRoutes } from './documents.routes.ts';
import { createDocumentsService } from './documents.service.ts';

export { seedDemoDocuments } from './documents.seed.ts';

export function createDocumentsModule(deps: { db: Database }) {
  const service = createDocumentsService({ repo: createDocumentsRepo(deps.db) });
  return { service, routes: documentsRoutes(service) };
}
