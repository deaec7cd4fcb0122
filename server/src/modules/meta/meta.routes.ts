import {
  appMetaSchema,
  pageMetaParamsSchema,
  pageMetaSchema,
  putAppMetaBodySchema,
  putPageMetaBodySchema,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../http/auth.ts';
import { notFound } from '../../http/errors.ts';
import type { MetaRepo } from './meta.repo.ts';

export function metaRoutes(repo: MetaRepo): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/meta', { schema: { tags: ['meta'], response: { 200: appMetaSchema } } }, async () => {
      const meta = await repo.getAppMeta();
      return { gtagID: meta.gtag_id };
    });

    app.put(
      '/meta',
      {
        config: { auth: 'admin' },
        schema: { tags: ['meta'], body: putAppMetaBodySchema, response: { 200: appMetaSchema } },
      },
      async (request) => {
        await repo.setGtagId(request.body.gtagId, actorOf(request).userId);
        return { gtagID: request.body.gtagId };
      },
    );

    app.get(
      '/meta/pages/:page',
      { schema: { tags: ['meta'], params: pageMetaParamsSchema, response: { 200: pageMetaSchema } } },
      async (request) => {
        const meta = await repo.getPageMeta(request.params.page);
        if (!meta) throw notFound(`Page meta '${request.params.page}'`);
        return meta;
      },
    );

    app.put(
      '/meta/pages/:page',
      {
        config: { auth: 'admin' },
        schema: {
          tags: ['meta'],
          params: pageMetaParamsSchema,
          body: putPageMetaBodySchema,
          response: { 200: pageMetaSchema },
        },
      },
      async (request) => {
        const { title, description } = request.body;
        await repo.putPageMeta(request.params.page, title, description, actorOf(request).userId);
        return { title, description };
      },
    );
  };
}
