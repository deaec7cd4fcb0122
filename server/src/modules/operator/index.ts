import type { LiveTelemetry } from '@portal/caster';
import type { Database } from '../../db/client.ts';
import { createOperatorRepo } from './operator.repo.ts';
import { operatorRoutes } from './operator.routes.ts';
import { createOperatorService } from './operator.service.ts';

export function createOperatorModule(db: Database, options: { live?: LiveTelemetry }) {
  const service = createOperatorService({ repo: createOperatorRepo(db), live: options.live });
  return { service, routes: operatorRoutes(service) };
}
