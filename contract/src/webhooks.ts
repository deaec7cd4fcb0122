import { z } from 'zod';

/**
 * The events a webhook endpoint can choose (issue 37), each sent when the portal records the fact it names (for the
 * notices, the moment its e-mail is queued, whatever the mail preferences say). The payload of each is listed in
 * docs/machine-access.md. `webhook.test` is the page's "send a test".
 */
export const webhookEvents = [
  'session.started',
  'session.ended',
  'attempt.refused',
  'station.down',
  'station.up',
  'network.down',
  'network.up',
  'payment.succeeded',
  'payment.failed',
  'balance.low',
  'access.ending',
  'access.ended',
  'rinex.ready',
] as const;
export const webhookEventSchema = z.enum(webhookEvents);
export type WebhookEvent = z.infer<typeof webhookEventSchema>;
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** Headers of every delivery: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the endpoint's secret>`. */
export const WEBHOOK_SIGNATURE_HEADER = 'portal-signature';
export const WEBHOOK_EVENT_HEADER = 'portal-event';
export const WEBHOOK_DELIVERY_HEADER = 'portal-delivery';
/** A receiver refuses a signature older than this: a replayed delivery is detectable by its timestamp. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export const MAX_WEBHOOKS_PER_OWNER = 10;

export const createWebhookBodySchema = z.object({
  url: z.url({ protocol: /^https?$/ }).max(2000),
  events: z.array(webhookEventSchema).min(1).max(webhookEvents.length),
});
export type CreateWebhookBody = z.infer<typeof createWebhookBodySchema>;

export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(webhookEventSchema),
  createdAt: z.string(),
});
export type Webhook = z.infer<typeof webhookSchema>;
export const webhookWithSecretSchema = webhookSchema.extend({ secret: z.string() });
export type WebhookWithSecret = z.infer<typeof webhookWithSecretSchema>;
export const webhookListSchema = z.object({ items: z.array(webhookSchema) });
export const webhookParamsSchema = z.object({ id: z.uuid() });
export const webhookDeliveryParamsSchema = z.object({ id: z.uuid(), deliveryId: z.uuid() });
export const organizationWebhookParamsSchema = z.object({ orgId: z.uuid(), id: z.uuid() });
export const organizationWebhookDeliveryParamsSchema = z.object({
  orgId: z.uuid(),
  id: z.uuid(),
  deliveryId: z.uuid(),
});

export const webhookDeliverySchema = z.object({
  id: z.string(),
  event: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempts: z.number().int(),
  createdAt: z.string(),
  nextAttemptAt: z.string().nullable(),
  lastStatusCode: z.number().int().nullable(),
  /** The start of the receiver's last answer (at most 1 KiB), or why it could not be reached. */
  lastResponse: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
export const webhookDeliveryListSchema = z.object({ items: z.array(webhookDeliverySchema) });
