import {
  type AccountGrant,
  type AccountMountpoint,
  type AdminMaxConnectionsBody,
  type AdminNtripAccount,
  type AdminNtripAccountPage,
  type AdminNtripAccountQuery,
  accountGrantSchema,
  accountMountpointListSchema,
  adminNtripAccountPageSchema,
  adminNtripAccountSchema,
  type ConnectionTestBody,
  type ConnectionTestResult,
  connectionTestResultSchema,
  type ManualGrantBody,
  type NtripAccount,
  type NtripAccountWithPassword,
  type NtripSessionPage,
  ntripAccountListSchema,
  ntripAccountSchema,
  ntripAccountWithPasswordSchema,
  ntripSessionPageSchema,
  pageWindow,
  type TokenActivation,
  type TokenActivationBody,
  tokenActivationSchema,
  type UpdateNtripAccountBody,
} from '@portal/contract';
import { api, download } from '../../lib/api';

/** The user's own accounts, or with `orgId` that organisation's. */
export async function fetchAccounts(orgId?: string): Promise<NtripAccount[]> {
  const url = orgId ? `/org/${orgId}/ntrip-accounts` : '/ntrip-accounts';
  return ntripAccountListSchema.parse((await api.get(url)).data).items;
}

export async function createAccount(label: string, orgId?: string): Promise<NtripAccountWithPassword> {
  const url = orgId ? `/org/${orgId}/ntrip-accounts` : '/ntrip-accounts';
  return ntripAccountWithPasswordSchema.parse((await api.post(url, { label })).data);
}

export async function updateAccount(id: string, body: UpdateNtripAccountBody): Promise<NtripAccount> {
  return ntripAccountSchema.parse((await api.patch(`/ntrip-accounts/${id}`, body)).data);
}

export async function regeneratePassword(id: string): Promise<NtripAccountWithPassword> {
  return ntripAccountWithPasswordSchema.parse((await api.post(`/ntrip-accounts/${id}/password`)).data);
}

export async function deleteAccount(id: string): Promise<void> {
  await api.delete(`/ntrip-accounts/${id}`);
}

export async function fetchMountpoints(id: string): Promise<AccountMountpoint[]> {
  return accountMountpointListSchema.parse((await api.get(`/ntrip-accounts/${id}/mountpoints`)).data).items;
}

/** Issue 17: the server logs in to the caster as this account for up to 10 s and reports what came back. */
export async function testConnection(id: string, body: ConnectionTestBody): Promise<ConnectionTestResult> {
  return connectionTestResultSchema.parse((await api.post(`/ntrip-accounts/${id}/test-connection`, body)).data);
}

export async function fetchSessions(
  id: string,
  page: number,
  pageSize: number,
  admin = false,
): Promise<NtripSessionPage> {
  const path = admin ? `/admin/ntrip-accounts/${id}/sessions` : `/ntrip-accounts/${id}/sessions`;
  const { data } = await api.get(path, { params: pageWindow(page, pageSize) });
  return ntripSessionPageSchema.parse(data);
}

/** The CSV needs the bearer credential, so it is fetched and handed to the browser as a file. */
export function downloadSessionsCsv(id: string, fallbackName: string): Promise<void> {
  return download(`/ntrip-accounts/${id}/sessions.csv`, undefined, fallbackName);
}

export async function activateTokens(body: TokenActivationBody): Promise<TokenActivation> {
  return tokenActivationSchema.parse((await api.post('/tokens', body)).data);
}

export async function fetchAdminAccounts(query: AdminNtripAccountQuery): Promise<AdminNtripAccountPage> {
  const { data } = await api.get('/admin/ntrip-accounts', { params: query });
  return adminNtripAccountPageSchema.parse(data);
}

export async function adminSetEnabled(id: string, enabled: boolean): Promise<AdminNtripAccount> {
  return adminNtripAccountSchema.parse((await api.patch(`/admin/ntrip-accounts/${id}`, { enabled })).data);
}

export async function adminSetMaxConnections(id: string, body: AdminMaxConnectionsBody): Promise<AdminNtripAccount> {
  return adminNtripAccountSchema.parse((await api.put(`/admin/ntrip-accounts/${id}/max-connections`, body)).data);
}

export async function adminGrant(id: string, body: ManualGrantBody): Promise<AccountGrant> {
  return accountGrantSchema.parse((await api.post(`/admin/ntrip-accounts/${id}/grants`, body)).data);
}
