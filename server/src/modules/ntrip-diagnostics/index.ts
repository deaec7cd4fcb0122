import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/client.ts';
import { createNtripDiagnosticsRepo } from './ntrip-diagnostics.repo.ts';
import { ntripDiagnosticsRoutes } from './ntrip-diagnostics.routes.ts';
import { createNtripDiagnosticsService, type NtripDiagnosticsService } from './ntrip-diagnostics.service.ts';

export interface NtripDiagnosticsModule {
  service: NtripDiagnosticsService;
  routes: FastifyPluginAsync;
}

/** Why rovers get no corrections: refused attempts per account and the admin-wide log (issue 17). */
export function createNtripDiagnosticsModule(
  db: Database,
  options: { clock?: () => Date } = {},
): NtripDiagnosticsModule {
  const service = createNtripDiagnosticsService({ repo: createNtripDiagnosticsRepo(db), ...options });
  return { service, routes: ntripDiagnosticsRoutes(service) as FastifyPluginAsync };
}
