import {
  adminCreateRinexJobBodySchema,
  adminRinexJobQuerySchema,
  adminRinexNetworkListSchema,
  adminRinexNetworkPatchSchema,
  adminRinexNetworkSchema,
  adminRinexStationListSchema,
  adminRinexStationsQuerySchema,
  adminRinexTotalsSchema,
  createRinexJobBodySchema,
  nearestQuerySchema,
  nearestStationListSchema,
  rinexAvailabilityQuerySchema,
  rinexAvailabilitySchema,
  rinexDownloadQuerySchema,
  rinexJobListSchema,
  rinexJobParamsSchema,
  rinexJobSchema,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../http/auth.ts';
import type { RinexService } from './rinex.service.ts';

const tags = ['rinex'];
const adminTags = ['rinex admin'];
const user = { auth: 'user' } as const;
const admin = { auth: 'admin' } as const;
const idParams = z.object({ id: z.uuid() });

/** RINEX calls: parse, authorise (auth level here, ownership in the service), call. */
export function rinexRoutes(service: RinexService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/rinex/availability',
      {
        config: user,
        schema: { tags, querystring: rinexAvailabilityQuerySchema, response: { 200: rinexAvailabilitySchema } },
      },
      async (request) => service.availability(actorOf(request), request.query),
    );

    app.get(
      '/rinex/stations/nearest',
      { config: user, schema: { tags, querystring: nearestQuerySchema, response: { 200: nearestStationListSchema } } },
      async (request) => ({ items: await service.nearest(request.query.lat, request.query.lon) }),
    );

    app.post(
      '/rinex/jobs',
      {
        config: { ...user, apiKey: 'rinex:write', idempotent: true },
        schema: { tags, body: createRinexJobBodySchema, response: { 201: rinexJobSchema } },
      },
      async (request, reply) => reply.status(201).send(await service.create(actorOf(request), request.body)),
    );

    app.get(
      '/rinex/jobs',
      { config: { ...user, apiKey: 'rinex:read' }, schema: { tags, response: { 200: rinexJobListSchema } } },
      async (request) => ({ items: await service.list(actorOf(request)) }),
    );

    app.get(
      '/rinex/jobs/:id',
      {
        config: { ...user, apiKey: 'rinex:read' },
        schema: { tags, params: rinexJobParamsSchema, response: { 200: rinexJobSchema } },
      },
      async (request) => service.get(actorOf(request), request.params.id),
    );

    // The owner's bearer token, or a signed link (a browser download carries no Authorization header).
    app.get(
      '/rinex/jobs/:id/download',
      {
        config: { auth: 'optional' },
        schema: {
          tags,
          params: rinexJobParamsSchema,
          querystring: rinexDownloadQuerySchema,
          produces: ['application/zip'],
        },
      },
      async (request, reply) => {
        const file = await service.download(request.actor, request.params.id, request.query);
        return reply
          .header('content-type', 'application/zip')
          .header('content-length', String(file.bytes))
          .header('content-disposition', `attachment; filename="${file.name}"`)
          .header('cache-control', 'private, no-store')
          .send(file.stream);
      },
    );

    // --- admin ---

    app.post(
      '/admin/rinex/jobs',
      {
        config: admin,
        schema: { tags: adminTags, body: adminCreateRinexJobBodySchema, response: { 201: rinexJobSchema } },
      },
      async (request, reply) => {
        const job = await app.audit.around(
          request,
          { action: 'rinex_job.create', target: (j) => ({ type: 'rinex_job', id: j.id }) },
          () => service.adminCreate(actorOf(request), request.body),
        );
        return reply.status(201).send(job);
      },
    );

    app.get(
      '/admin/rinex/jobs',
      {
        config: admin,
        schema: { tags: adminTags, querystring: adminRinexJobQuerySchema, response: { 200: rinexJobListSchema } },
      },
      async (request) => ({ items: await service.adminJobs(actorOf(request), request.query.userId) }),
    );

    app.get(
      '/admin/rinex/networks',
      { config: admin, schema: { tags: adminTags, response: { 200: adminRinexNetworkListSchema } } },
      async (request) => ({ items: await service.adminNetworks(actorOf(request)) }),
    );

    app.patch(
      '/admin/rinex/networks/:id',
      {
        config: admin,
        schema: {
          tags: adminTags,
          params: idParams,
          body: adminRinexNetworkPatchSchema,
          response: { 200: adminRinexNetworkSchema },
        },
      },
      async (request) => {
        const { id } = request.params;
        return app.audit.around(
          request,
          {
            action: 'network.rinex_settings',
            target: { type: 'network', id },
            before: async () => (await service.adminNetworks(actorOf(request))).find((n) => n.id === id) ?? null,
          },
          () => service.adminUpdateNetwork(actorOf(request), id, request.body),
        );
      },
    );

    app.get(
      '/admin/rinex/stations',
      {
        config: admin,
        schema: {
          tags: adminTags,
          querystring: adminRinexStationsQuerySchema,
          response: { 200: adminRinexStationListSchema },
        },
      },
      async (request) => ({ items: await service.adminStations(actorOf(request), request.query.network) }),
    );

    app.get(
      '/admin/rinex/totals',
      { config: admin, schema: { tags: adminTags, response: { 200: adminRinexTotalsSchema } } },
      async (request) => service.adminTotals(actorOf(request)),
    );
  };
}
