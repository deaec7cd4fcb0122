import type { Database } from '../../db/client.ts';
import { createStatusRepo } from './status.repo.ts';
import { type StatusRouteOptions, statusRoutes } from './status.routes.ts';
import { createStatusService } from './status.service.ts';

export type { IncidentRow, StationScope } from './status.repo.ts';
export { percent, presentIncident, windowStart } from './status.service.ts';

/**
 * The public status page's figures and feeds (issue 33, docs/adr/0068-status-page.md). `service.incidentsSince` is
 * what the outage alerts ask: the incidents of given stations or networks from the recorded state changes.
 */
export function createStatusModule(deps: StatusRouteOptions & { db: Database }) {
  const { db, ...options } = deps;
  const service = createStatusService({ repo: createStatusRepo(db) });
  return { service, routes: statusRoutes(service, options) };
}

/** The incidents of the given stations or networks since `since`, newest first, without the routes. */
export function createIncidentReader(db: Database) {
  return createStatusService({ repo: createStatusRepo(db) }).incidentsSince;
}
