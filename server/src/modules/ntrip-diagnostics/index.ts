import type { LiveTelemetry } from '@portal/caster';
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/client.ts';
import { createNtripDiagnosticsRepo } from './ntrip-diagnostics.repo.ts';
import { ntripDiagnosticsRoutes } from './ntrip-diagnostics.routes.ts';
import { createNtripDiagnosticsService, type NtripDiagnosticsService } from './ntrip-diagnostics.service.ts';

export interface NtripDiagnosticsModule {
  service: NtripDiagnosticsService;
  routes: FastifyPluginAsync;
}

/**
 * Why rovers get no corrections and what they get now (issue 17): refused attempts per account, the admin-wide log,
 * live sessions and live base stations.
 */
export function createNtripDiagnosticsModule(deps: {
  db: Database;
  live?: LiveTelemetry;
  clock?: () => Date;
}): NtripDiagnosticsModule {
  const { db, ...options } = deps;
  const service = createNtripDiagnosticsService({ repo: createNtripDiagnosticsRepo(db), ...options });
  return { service, routes: ntripDiagnosticsRoutes(service) as FastifyPluginAsync };
}
