import {
  appMetaSchema,
  pageMetaParamsSchema,
  pageMetaSchema,
  putAppMetaBodySchema,
  putPageMetaBodySchema,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../http/auth.ts';
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
      async (request) =>
        app.audit.around(
          request,
          {
            action: 'meta.update',
            target: { type: 'app_meta' },
            before: async () => ({ gtagID: (await repo.getAppMeta()).gtag_id }),
          },
          async () => {
            await repo.setGtagId(request.body.gtagId, actorOf(request).userId);
            return { gtagID: request.body.gtagId };
          },
        ),
    );

    app.get(
      '/meta/pages/:page',
      { schema: { tags: ['meta'], params: pageMetaParamsSchema, response: { 200: pageMetaSchema } } },
      // A page without stored meta keeps the SPA's own title and description: empty strings say so. Every page
      // asks, and a 404 for each was an error in every browser console.
      async (request) => (await repo.getPageMeta(request.params.page)) ?? { title: '', description: '' },
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
        const { page } = request.params;
        const { title, description } = request.body;
        return app.audit.around(
          request,
          { action: 'page_meta.update', target: { type: 'page_meta', id: page }, before: () => repo.getPageMeta(page) },
          async () => {
            await repo.putPageMeta(page, title, description, actorOf(request).userId);
            return { title, description };
          },
        );
      },
    );
  };
}
