import {
  type ApiKey,
  apiKeyListSchema,
  type CreateApiKeyBody,
  type CreatedApiKey,
  createdApiKeySchema,
} from '@portal/contract';
import { api } from '../../lib/api';

/** A person's keys (`orgId` undefined) or an organisation's. */
const base = (orgId?: string) => (orgId ? `/org/${orgId}/api-keys` : '/api-keys');

export async function fetchApiKeys(orgId?: string): Promise<ApiKey[]> {
  return apiKeyListSchema.parse((await api.get(base(orgId))).data).items;
}

export async function createApiKey(body: CreateApiKeyBody, orgId?: string): Promise<CreatedApiKey> {
  return createdApiKeySchema.parse((await api.post(base(orgId), body)).data);
}

export async function revokeApiKey(id: string, orgId?: string): Promise<void> {
  await api.delete(`${base(orgId)}/${id}`);
}
