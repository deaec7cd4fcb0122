import {
  createFeedBodySchema,
  createNetworkBodySchema,
  createStationBodySchema,
  feedListQuerySchema,
  feedPageSchema,
  feedSchema,
  idParamsSchema,
  importReportSchema,
  importSourcetableBodySchema,
  MAX_SOURCETABLE_CHARS,
  networkListSchema,
  networkRefParamsSchema,
  networkSchema,
  patchFeedBodySchema,
  patchNetworkBodySchema,
  patchStationBodySchema,
  replaceNetworkBodySchema,
  replaceStationBodySchema,
  stationListQuerySchema,
  stationListResponseSchema,
  stationSchema,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { contentLanguage } from '../../http/language.ts';
import { createCatalogueRepo } from './catalogue.repo.ts';
import { createCatalogueService } from './catalogue.service.ts';
import { createFeedCipher } from './feed-secrets.ts';
import { createFeedsService } from './feeds.service.ts';
import { addEtags } from './http-cache.ts';

const noContent = { 204: z.null() };

/** Public reads of the catalogue (cacheable) and the admin writes of networks, stations and feeds. */
export function catalogueRoutes(deps: { db: Database; feedSecretKey: string }): FastifyPluginAsyncZod {
  const repo = createCatalogueRepo(deps.db);
  const catalogue = createCatalogueService({ repo });
  const feeds = createFeedsService({ repo, cipher: createFeedCipher(deps.feedSecretKey) });

  const publicRoutes: FastifyPluginAsyncZod = async (app) => {
    addEtags(app);
    const publicOnly = { publicOnly: true };

    app.get(
      '/networks',
      { schema: { tags: ['catalogue'], response: { 200: networkListSchema } } },
      async (request, reply) => ({
        items: await catalogue.listNetworks({ ...publicOnly, language: contentLanguage(request, reply) }),
      }),
    );

    app.get(
      '/networks/:idOrSlug',
      { schema: { tags: ['catalogue'], params: networkRefParamsSchema, response: { 200: networkSchema } } },
      async (request, reply) =>
        catalogue.getNetwork(request.params.idOrSlug, { ...publicOnly, language: contentLanguage(request, reply) }),
    );

    app.get(
      '/stations',
      {
        schema: {
          tags: ['catalogue'],
          querystring: stationListQuerySchema,
          response: { 200: stationListResponseSchema },
        },
      },
      async (request) => catalogue.listStations(request.query, publicOnly),
    );

    app.get(
      '/stations/:id',
      { schema: { tags: ['catalogue'], params: idParamsSchema, response: { 200: stationSchema } } },
      async (request) => catalogue.getStation(request.params.id, publicOnly),
    );
  };

  const adminRoutes: FastifyPluginAsyncZod = async (app) => {
    const admin = { auth: 'admin' as const };
    const all = { publicOnly: false };
    const tags = ['catalogue admin'];

    // ---------- networks ----------

    app.get('/networks', { config: admin, schema: { tags, response: { 200: networkListSchema } } }, async () => ({
      items: await catalogue.listNetworks(all),
    }));

    app.get(
      '/networks/:id',
      { config: admin, schema: { tags, params: idParamsSchema, response: { 200: networkSchema } } },
      async (request) => catalogue.getNetwork(request.params.id, all),
    );

    app.post(
      '/networks',
      { config: admin, schema: { tags, body: createNetworkBodySchema, response: { 201: networkSchema } } },
      async (request, reply) => {
        const network = await app.audit.around(
          request,
          { action: 'network.create', target: (n) => ({ type: 'network', id: n.id }) },
          () => catalogue.createNetwork(request.body),
        );
        return reply.code(201).send(network);
      },
    );

    app.put(
      '/networks/:id',
      {
        config: admin,
        schema: { tags, params: idParamsSchema, body: replaceNetworkBodySchema, response: { 200: networkSchema } },
      },
      async (request) => {
        const { id } = request.params;
        return app.audit.around(
          request,
          { action: 'network.update', target: { type: 'network', id }, before: () => catalogue.getNetwork(id, all) },
          () => catalogue.updateNetwork(id, request.body),
        );
      },
    );

    app.patch(
      '/networks/:id',
      {
        config: admin,
        schema: { tags, params: idParamsSchema, body: patchNetworkBodySchema, response: { 200: networkSchema } },
      },
      async (request) => {
        const { id } = request.params;
        return app.audit.around(
          request,
          { action: 'network.update', target: { type: 'network', id }, before: () => catalogue.getNetwork(id, all) },
          () => catalogue.updateNetwork(id, request.body),
        );
      },
    );

    app.delete(
      '/networks/:id',
      { config: admin, schema: { tags, params: idParamsSchema, response: noContent } },
      async (request, reply) => {
        const { id } = request.params;
        await app.audit.around(
          request,
          { action: 'network.delete', target: { type: 'network', id }, before: () => catalogue.getNetwork(id, all) },
          () => catalogue.deleteNetwork(id),
        );
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/networks/:id/import-sourcetable',
      {
        config: admin,
        // A large caster's sourcetable (hundreds of STR lines) is bigger than the API's default body limit.
        bodyLimit: MAX_SOURCETABLE_CHARS * 2,
        schema: {
          tags,
          params: idParamsSchema,
          body: importSourcetableBodySchema,
          response: { 200: importReportSchema },
        },
      },
      async (request) => {
        const { id } = request.params;
        const run = () => catalogue.importSourcetable(id, request.body.text, request.body.dryRun);
        // A dry run changes nothing, so it is not an admin write.
        if (request.body.dryRun) return run();
        return app.audit.around(
          request,
          { action: 'network.import_sourcetable', target: { type: 'network', id } },
          run,
        );
      },
    );

    // ---------- stations ----------

    app.get(
      '/stations',
      {
        config: admin,
        schema: { tags, querystring: stationListQuerySchema, response: { 200: stationListResponseSchema } },
      },
      async (request) => catalogue.listStations(request.query, all),
    );

    app.get(
      '/stations/:id',
      { config: admin, schema: { tags, params: idParamsSchema, response: { 200: stationSchema } } },
      async (request) => catalogue.getStation(request.params.id, all),
    );

    app.post(
      '/stations',
      { config: admin, schema: { tags, body: createStationBodySchema, response: { 201: stationSchema } } },
      async (request, reply) => {
        const station = await app.audit.around(
          request,
          { action: 'station.create', target: (st) => ({ type: 'station', id: st.id }) },
          () => catalogue.createStation(request.body),
        );
        return reply.code(201).send(station);
      },
    );

    app.put(
      '/stations/:id',
      {
        config: admin,
        schema: { tags, params: idParamsSchema, body: replaceStationBodySchema, response: { 200: stationSchema } },
      },
      async (request) => {
        const { id } = request.params;
        return app.audit.around(
          request,
          { action: 'station.update', target: { type: 'station', id }, before: () => catalogue.getStation(id, all) },
          () => catalogue.updateStation(id, request.body),
        );
      },
    );

    app.patch(
      '/stations/:id',
      {
        config: admin,
        schema: { tags, params: idParamsSchema, body: patchStationBodySchema, response: { 200: stationSchema } },
      },
      async (request) => {
        const { id } = request.params;
        return app.audit.around(
          request,
          { action: 'station.update', target: { type: 'station', id }, before: () => catalogue.getStation(id, all) },
          () => catalogue.updateStation(id, request.body),
        );
      },
    );

    app.delete(
      '/stations/:id',
      { config: admin, schema: { tags, params: idParamsSchema, response: noContent } },
      async (request, reply) => {
        const { id } = request.params;
        await app.audit.around(
          request,
          { action: 'station.delete', target: { type: 'station', id }, before: () => catalogue.getStation(id, all) },
          () => catalogue.deleteStation(id),
        );
        return reply.code(204).send(null);
      },
    );

    // ---------- feeds ----------

    app.get(
      '/feeds',
      { config: admin, schema: { tags, querystring: feedListQuerySchema, response: { 200: feedPageSchema } } },
      async (request) => feeds.listFeeds(request.query),
    );

    app.get(
      '/feeds/:id',
      { config: admin, schema: { tags, params: idParamsSchema, response: { 200: feedSchema } } },
      async (request) => feeds.getFeed(request.params.id),
    );

    app.post(
      '/feeds',
      { config: admin, schema: { tags, body: createFeedBodySchema, response: { 201: feedSchema } } },
      async (request, reply) => {
        const feed = await app.audit.around(
          request,
          { action: 'feed.create', target: (f) => ({ type: 'feed', id: f.id }) },
          () => feeds.createFeed(request.body),
        );
        return reply.code(201).send(feed);
      },
    );

    app.patch(
      '/feeds/:id',
      {
        config: admin,
        schema: { tags, params: idParamsSchema, body: patchFeedBodySchema, response: { 200: feedSchema } },
      },
      async (request) => {
        const { id } = request.params;
        return app.audit.around(
          request,
          { action: 'feed.update', target: { type: 'feed', id }, before: () => feeds.getFeed(id) },
          () => feeds.updateFeed(id, request.body),
        );
      },
    );

    app.delete(
      '/feeds/:id',
      { config: admin, schema: { tags, params: idParamsSchema, response: noContent } },
      async (request, reply) => {
        const { id } = request.params;
        await app.audit.around(
          request,
          { action: 'feed.delete', target: { type: 'feed', id }, before: () => feeds.getFeed(id) },
          () => feeds.deleteFeed(id),
        );
        return reply.code(204).send(null);
      },
    );
  };

  return async (app) => {
    await app.register(publicRoutes);
    await app.register(adminRoutes, { prefix: '/admin' });
  };
}
