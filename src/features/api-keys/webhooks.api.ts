import {
  type CreateWebhookBody,
  type Webhook,
  type WebhookDelivery,
  type WebhookWithSecret,
  webhookDeliveryListSchema,
  webhookListSchema,
  webhookWithSecretSchema,
} from '@portal/contract';
import { api } from '../../lib/api';

/** A person's webhooks (`orgId` undefined) or an organisation's. */
const base = (orgId?: string) => (orgId ? `/org/${orgId}/webhooks` : '/webhooks');

export async function fetchWebhooks(orgId?: string): Promise<Webhook[]> {
  return webhookListSchema.parse((await api.get(base(orgId))).data).items;
}
export async function createWebhook(body: CreateWebhookBody, orgId?: string): Promise<WebhookWithSecret> {
  return webhookWithSecretSchema.parse((await api.post(base(orgId), body)).data);
}
export async function removeWebhook(id: string, orgId?: string): Promise<void> {
  await api.delete(`${base(orgId)}/${id}`);
}
export async function rollWebhookSecret(id: string, orgId?: string): Promise<WebhookWithSecret> {
  return webhookWithSecretSchema.parse((await api.post(`${base(orgId)}/${id}/secret`)).data);
}
export async function testWebhook(id: string, orgId?: string): Promise<void> {
  await api.post(`${base(orgId)}/${id}/test`);
}
export async function fetchDeliveries(id: string, orgId?: string): Promise<WebhookDelivery[]> {
  return webhookDeliveryListSchema.parse((await api.get(`${base(orgId)}/${id}/deliveries`)).data).items;
}
export async function resendDelivery(id: string, deliveryId: string, orgId?: string): Promise<void> {
  await api.post(`${base(orgId)}/${id}/deliveries/${deliveryId}/resend`);
}
