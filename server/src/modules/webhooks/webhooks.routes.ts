import {
  createWebhookBodySchema,
  organizationParamsSchema,
  organizationWebhookDeliveryParamsSchema,
  organizationWebhookParamsSchema,
  webhookDeliveryListSchema,
  webhookDeliveryParamsSchema,
  webhookDeliverySchema,
  webhookListSchema,
  webhookParamsSchema,
  webhookWithSecretSchema,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../http/auth.ts';
import type { WebhooksService } from './webhooks.service.ts';

const tags = ['webhooks'];
// Managed from a signed-in session: a key that could point webhooks elsewhere could read everything they report.
const user = { auth: 'user' } as const;

/** A person's webhooks under /webhooks, an organisation's (for its owners and admins) under /org/{orgId}/webhooks. */
export function webhooksRoutes(service: WebhooksService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/webhooks',
      { config: user, schema: { tags, body: createWebhookBodySchema, response: { 201: webhookWithSecretSchema } } },
      async (request, reply) => reply.status(201).send(await service.create(actorOf(request), request.body)),
    );
    app.get('/webhooks', { config: user, schema: { tags, response: { 200: webhookListSchema } } }, async (request) => ({
      items: await service.list(actorOf(request)),
    }));
    app.delete(
      '/webhooks/:id',
      { config: user, schema: { tags, params: webhookParamsSchema } },
      async (request, reply) => {
        await service.remove(actorOf(request), request.params.id);
        return reply.status(204).send();
      },
    );
    app.post(
      '/webhooks/:id/secret',
      { config: user, schema: { tags, params: webhookParamsSchema, response: { 200: webhookWithSecretSchema } } },
      async (request) => service.rollSecret(actorOf(request), request.params.id),
    );
    app.post(
      '/webhooks/:id/test',
      { config: user, schema: { tags, params: webhookParamsSchema, response: { 201: webhookDeliverySchema } } },
      async (request, reply) => reply.status(201).send(await service.test(actorOf(request), request.params.id)),
    );
    app.get(
      '/webhooks/:id/deliveries',
      { config: user, schema: { tags, params: webhookParamsSchema, response: { 200: webhookDeliveryListSchema } } },
      async (request) => ({ items: await service.deliveries(actorOf(request), request.params.id) }),
    );
    app.post(
      '/webhooks/:id/deliveries/:deliveryId/resend',
      {
        config: user,
        schema: { tags, params: webhookDeliveryParamsSchema, response: { 201: webhookDeliverySchema } },
      },
      async (request, reply) =>
        reply.status(201).send(await service.resend(actorOf(request), request.params.id, request.params.deliveryId)),
    );

    app.post(
      '/org/:orgId/webhooks',
      {
        config: user,
        schema: {
          tags,
          params: organizationParamsSchema,
          body: createWebhookBodySchema,
          response: { 201: webhookWithSecretSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await service.create(actorOf(request), request.body, request.params.orgId)),
    );
    app.get(
      '/org/:orgId/webhooks',
      { config: user, schema: { tags, params: organizationParamsSchema, response: { 200: webhookListSchema } } },
      async (request) => ({ items: await service.list(actorOf(request), request.params.orgId) }),
    );
    app.delete(
      '/org/:orgId/webhooks/:id',
      { config: user, schema: { tags, params: organizationWebhookParamsSchema } },
      async (request, reply) => {
        await service.remove(actorOf(request), request.params.id, request.params.orgId);
        return reply.status(204).send();
      },
    );
    app.post(
      '/org/:orgId/webhooks/:id/secret',
      {
        config: user,
        schema: { tags, params: organizationWebhookParamsSchema, response: { 200: webhookWithSecretSchema } },
      },
      async (request) => service.rollSecret(actorOf(request), request.params.id, request.params.orgId),
    );
    app.post(
      '/org/:orgId/webhooks/:id/test',
      {
        config: user,
        schema: { tags, params: organizationWebhookParamsSchema, response: { 201: webhookDeliverySchema } },
      },
      async (request, reply) =>
        reply.status(201).send(await service.test(actorOf(request), request.params.id, request.params.orgId)),
    );
    app.get(
      '/org/:orgId/webhooks/:id/deliveries',
      {
        config: user,
        schema: { tags, params: organizationWebhookParamsSchema, response: { 200: webhookDeliveryListSchema } },
      },
      async (request) => ({
        items: await service.deliveries(actorOf(request), request.params.id, request.params.orgId),
      }),
    );
    app.post(
      '/org/:orgId/webhooks/:id/deliveries/:deliveryId/resend',
      {
        config: user,
        schema: { tags, params: organizationWebhookDeliveryParamsSchema, response: { 201: webhookDeliverySchema } },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await service.resend(actorOf(request), request.params.id, request.params.deliveryId, request.params.orgId),
          ),
    );
  };
}
