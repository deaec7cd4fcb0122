import type { LiveTelemetry } from '@portal/caster';
import type { Database } from '../../db/client.ts';
import { createOperatorRepo } from './operator.repo.ts';
import { operatorRoutes } from './operator.routes.ts';
import { createOperatorService } from './operator.service.ts';

export function createOperatorModule(deps: { db: Database; live?: LiveTelemetry }) {
  const service = createOperatorService({ repo: createOperatorRepo(deps.db), live: deps.live });
  return { service, routes: operatorRoutes(service) };
}
