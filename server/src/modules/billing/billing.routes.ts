import {
  adminAssignSubscriptionSchema,
  adminSubscriptionsSchema,
  adminTokenGrantSchema,
  checkoutCreatedSchema,
  checkoutSessionQuerySchema,
  checkoutSessionSchema,
  createProductSchema,
  customerSecretSchema,
  organizationParamsSchema,
  orgSubscriptionsSchema,
  paymentHistorySchema,
  paymentMethodParamsSchema,
  paymentMethodsSchema,
  paymentParamsSchema,
  priceIdQuerySchema,
  pricingTablesSchema,
  productListQuerySchema,
  productListSchema,
  productParamsSchema,
  productSchema,
  refundInputSchema,
  refundSchema,
  subscriptionActionSchema,
  subscriptionCheckoutQuerySchema,
  subscriptionSchema,
  tokenBalanceSchema,
  tokenHistorySchema,
  updateProductSchema,
  userSubscriptionsSchema,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../http/auth.ts';
import { contentLanguage } from '../../http/language.ts';
import { AppError } from '../../shared/errors.ts';
import { auditWho, recordAudit } from '../audit/index.ts';
import type { BillingService } from './billing.service.ts';
import { WebhookSignatureError } from './providers/provider.ts';

const tags = ['billing'];
const webhookAnswer = z.object({ received: z.boolean(), result: z.string() });
/**
 * Stripe delivers events from a handful of addresses, in bursts after a busy minute or a retry wave; under the
 * anonymous budget a burst would be answered 429 and redelivered for days. The webhook has a budget of its own per
 * address, which spends nothing of the anonymous one: a request without a valid signature costs one HMAC.
 */
const WEBHOOK_REQUESTS_PER_MINUTE = 6000;

/** Spec §7 billing calls, under /api. Parse, authorise, call the service; nothing else happens here. */
export function billingRoutes(service: BillingService): FastifyPluginAsyncZod {
  return async (app) => {
    // --- pricing ---
    app.get(
      '/stripe/subscription-pricing-tables',
      { config: { auth: 'optional' }, schema: { tags, response: { 200: pricingTablesSchema } } },
      async (request, reply) => service.pricingTables(request.actor, contentLanguage(request, reply)),
    );

    // Public like the subscription tables (issue 32): a visitor sees what tokens cost in money before signing up.
    app.get(
      '/tokenProducts',
      { config: { auth: 'optional' }, schema: { tags, response: { 200: pricingTablesSchema } } },
      async (request, reply) => service.tokenTables(request.actor, contentLanguage(request, reply)),
    );

    // --- checkout ---
    app.post(
      '/checkout/subscription',
      {
        config: { auth: 'user', idempotent: true },
        schema: { tags, querystring: subscriptionCheckoutQuerySchema, response: { 200: checkoutCreatedSchema } },
      },
      async (request) =>
        service.createCheckout(actorOf(request), 'subscription', request.query.priceId, request.query.orgId),
    );

    app.post(
      '/checkout/product',
      {
        config: { auth: 'user', idempotent: true },
        schema: { tags, querystring: priceIdQuerySchema, response: { 200: checkoutCreatedSchema } },
      },
      async (request) => service.createCheckout(actorOf(request), 'token', request.query.priceId),
    );

    app.get(
      '/checkout',
      {
        config: { auth: 'user' },
        schema: { tags, querystring: checkoutSessionQuerySchema, response: { 200: checkoutSessionSchema } },
      },
      async (request, reply) =>
        service.getCheckout(actorOf(request), request.query.checkoutSessionId, contentLanguage(request, reply)),
    );

    app.get(
      '/org/:orgId/checkout',
      {
        config: { auth: 'user' },
        schema: {
          tags,
          params: organizationParamsSchema,
          querystring: checkoutSessionQuerySchema,
          response: { 200: checkoutSessionSchema },
        },
      },
      async (request, reply) =>
        service.getOrganizationCheckout(
          actorOf(request),
          request.params.orgId,
          request.query.checkoutSessionId,
          contentLanguage(request, reply),
        ),
    );

    app.get(
      '/getCustomerSecret',
      { config: { auth: 'user' }, schema: { tags, response: { 200: customerSecretSchema } } },
      async (request) => service.customerSecret(actorOf(request)),
    );

    // --- saved cards (docs/adr/0031) ---
    app.get(
      '/billing/payment-methods',
      { config: { auth: 'user' }, schema: { tags, response: { 200: paymentMethodsSchema } } },
      async (request) => service.paymentMethods(actorOf(request)),
    );

    app.put(
      '/billing/payment-methods/:paymentMethodId/default',
      {
        config: { auth: 'user' },
        schema: { tags, params: paymentMethodParamsSchema, response: { 200: paymentMethodsSchema } },
      },
      async (request) => service.setDefaultPaymentMethod(actorOf(request), request.params.paymentMethodId),
    );

    app.delete(
      '/billing/payment-methods/:paymentMethodId',
      {
        config: { auth: 'user' },
        schema: { tags, params: paymentMethodParamsSchema, response: { 200: paymentMethodsSchema } },
      },
      async (request) => service.removePaymentMethod(actorOf(request), request.params.paymentMethodId),
    );

    // --- subscriptions ---
    app.get(
      '/subscriptions',
      {
        config: { auth: 'user', apiKey: 'billing:read' },
        schema: { tags, response: { 200: userSubscriptionsSchema } },
      },
      async (request, reply) => service.userSubscriptions(actorOf(request), contentLanguage(request, reply)),
    );

    app.put(
      '/subscriptions/cancel',
      {
        config: { auth: 'user' },
        schema: { tags, body: subscriptionActionSchema, response: { 200: subscriptionSchema } },
      },
      async (request) => service.cancel(actorOf(request), request.body.subscriptionId),
    );

    app.put(
      '/subscriptions/resume',
      {
        config: { auth: 'user' },
        schema: { tags, body: subscriptionActionSchema, response: { 200: subscriptionSchema } },
      },
      async (request) => service.resume(actorOf(request), request.body.subscriptionId),
    );

    app.get(
      '/org/:orgId/subscriptions',
      {
        config: { auth: 'user' },
        schema: { tags, params: organizationParamsSchema, response: { 200: orgSubscriptionsSchema } },
      },
      async (request, reply) => ({
        subscriptions: await service.organizationSubscriptions(
          actorOf(request),
          request.params.orgId,
          contentLanguage(request, reply),
        ),
      }),
    );

    // subscriptionId in the body, as DELETE /admin/subscriptions and PUT /subscriptions/cancel take it.
    app.delete(
      '/org/:orgId/subscriptions',
      {
        config: { auth: 'user' },
        schema: {
          tags,
          params: organizationParamsSchema,
          body: subscriptionActionSchema,
          response: { 200: subscriptionSchema },
        },
      },
      async (request) =>
        service.cancelForOrganization(actorOf(request), request.params.orgId, request.body.subscriptionId),
    );

    app.get(
      '/admin/subscriptions',
      { config: { auth: 'admin' }, schema: { tags, response: { 200: adminSubscriptionsSchema } } },
      async () => ({ subscriptions: await service.allSubscriptions() }),
    );

    app.post(
      '/admin/subscriptions',
      {
        config: { auth: 'admin' },
        schema: { tags, body: adminAssignSubscriptionSchema, response: { 201: subscriptionSchema } },
      },
      async (request, reply) => {
        const created = await app.audit.around(
          request,
          { action: 'subscription.assign', target: (sub) => ({ type: 'subscription', id: sub.id }) },
          () => service.assignManual(request.body),
        );
        return reply.status(201).send(created);
      },
    );

    app.delete(
      '/admin/subscriptions',
      {
        config: { auth: 'admin' },
        schema: { tags, body: subscriptionActionSchema, response: { 200: subscriptionSchema } },
      },
      async (request) => {
        const id = request.body.subscriptionId;
        return app.audit.around(
          request,
          { action: 'subscription.end', target: { type: 'subscription', id }, before: () => service.subscription(id) },
          () => service.endNow(actorOf(request), request.body.subscriptionId),
        );
      },
    );

    app.put(
      '/admin/subscriptions/cancel',
      {
        config: { auth: 'admin' },
        schema: { tags, body: subscriptionActionSchema, response: { 200: subscriptionSchema } },
      },
      async (request) => {
        const id = request.body.subscriptionId;
        return app.audit.around(
          request,
          {
            action: 'subscription.cancel',
            target: { type: 'subscription', id },
            before: () => service.subscription(id),
          },
          () => service.cancel(actorOf(request), request.body.subscriptionId),
        );
      },
    );

    app.put(
      '/admin/subscriptions/resume',
      {
        config: { auth: 'admin' },
        schema: { tags, body: subscriptionActionSchema, response: { 200: subscriptionSchema } },
      },
      async (request) => {
        const id = request.body.subscriptionId;
        return app.audit.around(
          request,
          {
            action: 'subscription.resume',
            target: { type: 'subscription', id },
            before: () => service.subscription(id),
          },
          () => service.resume(actorOf(request), request.body.subscriptionId),
        );
      },
    );

    // --- tokens ---
    app.put(
      '/admin/tokens',
      {
        config: { auth: 'admin' },
        schema: { tags, body: adminTokenGrantSchema, response: { 200: tokenBalanceSchema } },
      },
      async (request) => {
        const { userId } = request.body;
        return { userId, tokenAmount: await service.grantTokens(actorOf(request), request.body, auditWho(request)) };
      },
    );

    app.get(
      '/tokens/history',
      { config: { auth: 'user', apiKey: 'usage:read' }, schema: { tags, response: { 200: tokenHistorySchema } } },
      async (request) => service.tokenHistory(actorOf(request)),
    );

    app.get(
      '/billing/payments',
      { config: { auth: 'user', apiKey: 'billing:read' }, schema: { tags, response: { 200: paymentHistorySchema } } },
      async (request) => ({ payments: await service.payments(actorOf(request)) }),
    );

    // --- admin products ---
    app.get(
      '/admin/products',
      {
        config: { auth: 'admin' },
        schema: { tags, querystring: productListQuerySchema, response: { 200: productListSchema } },
      },
      async (request) => {
        const q = request.query;
        return {
          products: await service.listProducts({
            kind: q.kind,
            billable: q.billable === undefined ? undefined : q.billable === 'true',
            includeArchived: q.includeArchived === 'true',
          }),
        };
      },
    );

    app.post(
      '/admin/products',
      { config: { auth: 'admin' }, schema: { tags, body: createProductSchema, response: { 201: productSchema } } },
      async (request, reply) => {
        const created = await app.audit.around(
          request,
          { action: 'product.create', target: (p) => ({ type: 'product', id: p.id }) },
          () => service.createProduct(request.body),
        );
        return reply.status(201).send(created);
      },
    );

    app.put(
      '/admin/products/:productId',
      {
        config: { auth: 'admin' },
        schema: { tags, params: productParamsSchema, body: updateProductSchema, response: { 200: productSchema } },
      },
      async (request) => {
        const id = request.params.productId;
        return app.audit.around(
          request,
          { action: 'product.update', target: { type: 'product', id }, before: () => service.product(id) },
          () => service.updateProduct(id, request.body),
        );
      },
    );

    app.delete(
      '/admin/products/:productId',
      {
        config: { auth: 'admin' },
        schema: { tags, params: productParamsSchema, response: { 200: productSchema } },
      },
      async (request) => {
        const id = request.params.productId;
        return app.audit.around(
          request,
          { action: 'product.archive', target: { type: 'product', id }, before: () => service.product(id) },
          () => service.archiveProduct(id),
        );
      },
    );

    // --- refunds (back office) ---
    app.post(
      '/admin/payments/:paymentId/refund',
      {
        config: { auth: 'admin' },
        schema: { tags, params: paymentParamsSchema, body: refundInputSchema, response: { 201: refundSchema } },
      },
      async (request, reply) => {
        const actor = actorOf(request);
        const refund = await service.refundPayment(actor, request.params.paymentId, request.body, async (trx, r) => {
          await recordAudit(trx, {
            ...auditWho(request),
            action: 'payment.refund',
            target: { type: 'payment', id: request.params.paymentId },
            before: null,
            after: {
              ...r,
              reason: request.body.reason ?? null,
              cancelSubscription: request.body.cancelSubscription ?? false,
            },
          });
        });
        return reply.status(201).send(refund);
      },
    );
    // --- provider webhooks: the raw body is kept for the signature check ---
    await app.register(async (hooks) => {
      hooks.removeAllContentTypeParsers();
      hooks.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (_req, body, done) =>
        done(null, body),
      );
      hooks.post(
        '/stripe/webhook',
        {
          config: { auth: 'public', rateLimit: { max: WEBHOOK_REQUESTS_PER_MINUTE, timeWindow: '1 minute' } },
          schema: { tags, hide: true, response: { 200: webhookAnswer } },
        },
        async (request, reply) => {
          if (service.provider.name !== 'stripe') {
            throw new AppError(404, 'not_found', 'Stripe is not the payment provider of this portal.');
          }
          const raw = request.body;
          if (!Buffer.isBuffer(raw)) throw new AppError(400, 'bad_request', 'Expected a raw JSON body.');
          const signature = request.headers['stripe-signature'];
          let event: ReturnType<typeof service.provider.parseWebhook>;
          try {
            event = service.provider.parseWebhook(raw, Array.isArray(signature) ? signature[0] : signature);
          } catch (err) {
            if (err instanceof WebhookSignatureError) {
              request.log.warn({ reason: err.message }, 'webhook signature rejected');
              throw new AppError(400, 'invalid_signature', 'The webhook signature is not valid.');
            }
            throw err;
          }
          const result = await service.handleEvent(event);
          return reply.send({ received: true, result });
        },
      );
    });
  };
}
