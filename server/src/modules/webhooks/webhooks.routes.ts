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
import { z } from 'zod';
import { actorOf } from '../../http/auth.ts';
import type { WebhooksService } from './webhooks.service.ts';

const tags = ['webhooks'];
// Managed from a signed-in session: a key that could point webhooks elsewhere could read everything they report.
const user = { auth: 'user' } as const;

/** Where one kind of owner keeps its webhooks, and the path parameters that name them there. */
interface Owner {
  prefix: string;
  params: z.ZodType<{ orgId?: string }>;
  webhookParams: z.ZodType<{ orgId?: string; id: string }>;
  deliveryParams: z.ZodType<{ orgId?: string; id: string; deliveryId: string }>;
}

/** A person's webhooks under /webhooks, an organisation's (for its owners and admins) under /org/{orgId}/webhooks. */
const owners: Owner[] = [
  {
    prefix: '/webhooks',
    params: z.object({}),
    webhookParams: webhookParamsSchema,
    deliveryParams: webhookDeliveryParamsSchema,
  },
  {
    prefix: '/org/:orgId/webhooks',
    params: organizationParamsSchema,
    webhookParams: organizationWebhookParamsSchema,
    deliveryParams: organizationWebhookDeliveryParamsSchema,
  },
];

export function webhooksRoutes(service: WebhooksService): FastifyPluginAsyncZod {
  return async (app) => {
    for (const { prefix, params, webhookParams, deliveryParams } of owners) {
      app.post(
        prefix,
        {
          config: user,
          schema: { tags, params, body: createWebhookBodySchema, response: { 201: webhookWithSecretSchema } },
        },
        async (request, reply) =>
          reply.status(201).send(await service.create(actorOf(request), request.body, request.params.orgId)),
      );
      app.get(
        prefix,
        { config: user, schema: { tags, params, response: { 200: webhookListSchema } } },
        async (request) => ({ items: await service.list(actorOf(request), request.params.orgId) }),
      );
      app.delete(`${prefix}/:id`, { config: user, schema: { tags, params: webhookParams } }, async (request, reply) => {
        await service.remove(actorOf(request), request.params.id, request.params.orgId);
        return reply.status(204).send();
      });
      app.post(
        `${prefix}/:id/secret`,
        { config: user, schema: { tags, params: webhookParams, response: { 200: webhookWithSecretSchema } } },
        async (request) => service.rollSecret(actorOf(request), request.params.id, request.params.orgId),
      );
      app.post(
        `${prefix}/:id/test`,
        { config: user, schema: { tags, params: webhookParams, response: { 201: webhookDeliverySchema } } },
        async (request, reply) =>
          reply.status(201).send(await service.test(actorOf(request), request.params.id, request.params.orgId)),
      );
      app.get(
        `${prefix}/:id/deliveries`,
        { config: user, schema: { tags, params: webhookParams, response: { 200: webhookDeliveryListSchema } } },
        async (request) => ({
          items: await service.deliveries(actorOf(request), request.params.id, request.params.orgId),
        }),
      );
      app.post(
        `${prefix}/:id/deliveries/:deliveryId/resend`,
        { config: user, schema: { tags, params: deliveryParams, response: { 201: webhookDeliverySchema } } },
        async (request, reply) => {
          const { id, deliveryId, orgId } = request.params;
          return reply.status(201).send(await service.resend(actorOf(request), id, deliveryId, orgId));
        },
      );
    }
  };
}
