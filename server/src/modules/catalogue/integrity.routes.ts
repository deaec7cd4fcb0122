import {
  idParamsSchema,
  integrityActionBodySchema,
  networkIntegritySettingsSchema,
  stationSchema,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client.ts';
import type { CatalogueService } from './catalogue.service.ts';
import { createIntegrityRepo } from './integrity.repo.ts';
import { createIntegrityService, type IntegrityService } from './integrity.service.ts';

/** The admin's side of the integrity monitor (issue 33): decisions on a station, a network's settings. */
export function integrityRoutes(integrity: IntegrityService, catalogue: Pick<CatalogueService, 'getStation'>) {
  const routes: FastifyPluginAsyncZod = async (app) => {
    const admin = { auth: 'admin' as const };
    const tags = ['integrity admin'];
    const all = { publicOnly: false };

    app.post(
      '/admin/stations/:id/integrity',
      {
        config: admin,
        schema: { tags, params: idParamsSchema, body: integrityActionBodySchema, response: { 200: stationSchema } },
      },
      async (request) => {
        const { id } = request.params;
        await app.audit.around(
          request,
          {
            action: `station.integrity.${request.body.action}`,
            target: { type: 'station', id },
            before: () => catalogue.getStation(id, all),
          },
          () => integrity.act(id, request.body),
        );
        return catalogue.getStation(id, all);
      },
    );

    app.get(
      '/admin/networks/:id/integrity',
      { config: admin, schema: { tags, params: idParamsSchema, response: { 200: networkIntegritySettingsSchema } } },
      async (request) => integrity.networkSettings(request.params.id),
    );

    app.put(
      '/admin/networks/:id/integrity',
      {
        config: admin,
        schema: {
          tags,
          params: idParamsSchema,
          body: networkIntegritySettingsSchema,
          response: { 200: networkIntegritySettingsSchema },
        },
      },
      async (request) => {
        const { id } = request.params;
        return app.audit.around(
          request,
          {
            action: 'network.integrity.update',
            target: { type: 'network', id },
            before: () => integrity.networkSettings(id),
          },
          () => integrity.setNetworkSettings(id, request.body),
        );
      },
    );
  };
  return routes;
}

/** The integrity routes over the database (catalogue's tables: the monitor's columns live on its stations). */
export function createIntegrityModule(deps: { db: Database; catalogue: Pick<CatalogueService, 'getStation'> }) {
  const service = createIntegrityService({ repo: createIntegrityRepo(deps.db), now: () => new Date() });
  return { service, routes: integrityRoutes(service, deps.catalogue) };
}
