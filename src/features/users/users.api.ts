import {
  type AdminCreateNtripAccountBody,
  type AdminCustomer,
  type AdminUser,
  type AdminUserPatch,
  type AdminUsersPage,
  adminCustomerSchema,
  adminUserSchema,
  adminUsersPageSchema,
  type BillingDetails,
  billingDetailsAnswerSchema,
  type NtripAccountWithPassword,
  ntripAccountWithPasswordSchema,
} from '@portal/contract';
import { api } from '../../lib/api';

export async function fetchAdminUsers(query: {
  search?: string;
  limit: number;
  offset: number;
}): Promise<AdminUsersPage> {
  return adminUsersPageSchema.parse((await api.get('/admin/users', { params: query })).data);
}

export async function patchAdminUser(userId: string, patch: AdminUserPatch): Promise<AdminUser> {
  return adminUserSchema.parse((await api.patch(`/admin/users/${userId}`, patch)).data);
}

export async function fetchCustomer(userId: string): Promise<AdminCustomer> {
  return adminCustomerSchema.parse((await api.get(`/admin/users/${userId}`)).data);
}

export async function createNtripAccountFor(body: AdminCreateNtripAccountBody): Promise<NtripAccountWithPassword> {
  return ntripAccountWithPasswordSchema.parse((await api.post('/admin/ntrip-accounts', body)).data);
}

export async function resetNtripPassword(accountId: string): Promise<NtripAccountWithPassword> {
  return ntripAccountWithPasswordSchema.parse((await api.post(`/admin/ntrip-accounts/${accountId}/password`)).data);
}

export async function deleteNtripAccount(accountId: string): Promise<void> {
  await api.delete(`/admin/ntrip-accounts/${accountId}`);
}

/** An admin confirms (or withdraws) the customer's VAT number they checked; audited on the server. */
export async function setVatVerified(body: {
  userId: string;
  vatNumber: string;
  verified: boolean;
}): Promise<BillingDetails | null> {
  return billingDetailsAnswerSchema.parse((await api.put('/admin/billing-details/vat-verification', body)).data)
    .details;
}
