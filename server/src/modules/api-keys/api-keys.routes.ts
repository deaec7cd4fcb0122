import {
  apiKeyListSchema,
  apiKeyParamsSchema,
  createApiKeyBodySchema,
  createdApiKeySchema,
  organizationApiKeyParamsSchema,
  organizationParamsSchema,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../http/auth.ts';
import { auditWho } from '../audit/index.ts';
import type { ApiKeysService } from './api-keys.service.ts';

const tags = ['api-keys'];
// Keys are managed from a signed-in session only: a leaked key must not be able to make more keys.
const user = { auth: 'user' } as const;

/** Issue 37: a person's and an organisation's API keys. */
export function apiKeysRoutes(service: ApiKeysService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api-keys',
      { config: user, schema: { tags, body: createApiKeyBodySchema, response: { 201: createdApiKeySchema } } },
      async (request, reply) =>
        reply.status(201).send(await service.create(actorOf(request), request.body, auditWho(request))),
    );

    app.get('/api-keys', { config: user, schema: { tags, response: { 200: apiKeyListSchema } } }, async (request) => ({
      items: await service.list(actorOf(request)),
    }));

    app.delete(
      '/api-keys/:id',
      { config: user, schema: { tags, params: apiKeyParamsSchema } },
      async (request, reply) => {
        await service.revoke(actorOf(request), request.params.id, auditWho(request));
        return reply.status(204).send();
      },
    );

    app.post(
      '/org/:orgId/api-keys',
      {
        config: user,
        schema: {
          tags,
          params: organizationParamsSchema,
          body: createApiKeyBodySchema,
          response: { 201: createdApiKeySchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await service.createForOrganization(
              actorOf(request),
              request.params.orgId,
              request.body,
              auditWho(request),
            ),
          ),
    );

    app.get(
      '/org/:orgId/api-keys',
      { config: user, schema: { tags, params: organizationParamsSchema, response: { 200: apiKeyListSchema } } },
      async (request) => ({ items: await service.listOfOrganization(actorOf(request), request.params.orgId) }),
    );

    app.delete(
      '/org/:orgId/api-keys/:id',
      { config: user, schema: { tags, params: organizationApiKeyParamsSchema } },
      async (request, reply) => {
        await service.revokeOfOrganization(
          actorOf(request),
          request.params.orgId,
          request.params.id,
          auditWho(request),
        );
        return reply.status(204).send();
      },
    );
  };
}
