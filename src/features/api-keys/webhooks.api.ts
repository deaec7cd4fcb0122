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

export async function fetchWebhooks(): Promise<Webhook[]> {
  return webhookListSchema.parse((await api.get('/webhooks')).data).items;
}
export async function createWebhook(body: CreateWebhookBody): Promise<WebhookWithSecret> {
  return webhookWithSecretSchema.parse((await api.post('/webhooks', body)).data);
}
export async function removeWebhook(id: string): Promise<void> {
  await api.delete(`/webhooks/${id}`);
}
export async function rollWebhookSecret(id: string): Promise<WebhookWithSecret> {
  return webhookWithSecretSchema.parse((await api.post(`/webhooks/${id}/secret`)).data);
}
export async function testWebhook(id: string): Promise<void> {
  await api.post(`/webhooks/${id}/test`);
}
export async function fetchDeliveries(id: string): Promise<WebhookDelivery[]> {
  return webhookDeliveryListSchema.parse((await api.get(`/webhooks/${id}/deliveries`)).data).items;
}
export async function resendDelivery(id: string, deliveryId: string): Promise<void> {
  await api.post(`/webhooks/${id}/deliveries/${deliveryId}/resend`);
}
