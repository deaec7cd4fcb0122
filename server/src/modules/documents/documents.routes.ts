import {
  adminDocumentVersionsSchema,
  documentKindParamsSchema,
  documentVersionSchema,
  publishDocumentBodySchema,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../http/auth.ts';
import { auditWho } from '../audit/index.ts';
import type { DocumentsService } from './documents.service.ts';

export function documentsRoutes(service: DocumentsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/documents/:kind',
      { schema: { tags: ['documents'], params: documentKindParamsSchema, response: { 200: documentVersionSchema } } },
      async (request) => service.current(request.params.kind),
    );

    app.get(
      '/admin/documents/:kind',
      {
        config: { auth: 'admin' },
        schema: { tags: ['admin'], params: documentKindParamsSchema, response: { 200: adminDocumentVersionsSchema } },
      },
      async (request) => ({ items: await service.versions(request.params.kind) }),
    );

    app.post(
      '/admin/documents/:kind',
      {
        config: { auth: 'admin' },
        schema: {
          tags: ['admin'],
          params: documentKindParamsSchema,
          body: publishDocumentBodySchema,
          response: { 201: documentVersionSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await service.publish({ ...auditWho(request), actor: actorOf(request) }, request.params.kind, request.body),
          ),
    );
  };
}
