import type {
  AdminMaxConnectionsBody,
  AdminNtripAccountQuery,
  ConnectionTestBody,
  ManualGrantBody,
  TokenActivationBody,
  UpdateNtripAccountBody,
} from '@portal/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useUser } from '../auth/auth-context';
import { invalidateTokenBalances } from '../billing/billing.keys';
import { fetchNetworks } from '../catalogue/catalogue.api';
import { catalogueKeys } from '../catalogue/catalogue.hooks';
import { useActiveOrganization } from '../organizations/active-organization';
import {
  activateTokens,
  adminGrant,
  adminSetEnabled,
  adminSetMaxConnections,
  createAccount,
  deleteAccount,
  fetchAccounts,
  fetchAdminAccounts,
  fetchMountpoints,
  fetchSessions,
  regeneratePassword,
  testConnection,
  updateAccount,
} from './accounts.api';

export const accountKeys = {
  all: ['ntrip-accounts'] as const,
  mountpoints: (id: string) => ['ntrip-accounts', id, 'mountpoints'] as const,
  sessions: (id: string, page: number, pageSize: number) => ['ntrip-accounts', id, 'sessions', page, pageSize] as const,
  admin: (query: AdminNtripAccountQuery) => ['admin-ntrip-accounts', query] as const,
};

/**
 * The accounts of whoever the switcher says (the user, or the organisation chosen). Connection state changes on its
 * own (rovers come and go), so the list refreshes while it is shown.
 */
export function useAccounts() {
  const user = useUser();
  const org = useActiveOrganization();
  return useQuery({
    queryKey: org ? [...accountKeys.all, 'org', org.id] : accountKeys.all,
    queryFn: () => fetchAccounts(org?.id),
    enabled: !!user,
    refetchInterval: 15_000,
  });
}

export function useMountpoints(id: string) {
  return useQuery({ queryKey: accountKeys.mountpoints(id), queryFn: () => fetchMountpoints(id) });
}

export function useSessions(id: string, page: number, pageSize: number, admin = false) {
  return useQuery({
    queryKey: [...accountKeys.sessions(id, page, pageSize), admin],
    queryFn: () => fetchSessions(id, page, pageSize, admin),
    placeholderData: keepPreviousData,
  });
}

/** The public networks (`GET /networks`), the catalogue's query; a minute is fresh enough for choosing one. */
export function useNetworks() {
  return useQuery({
    queryKey: catalogueKeys.networks('public'),
    queryFn: () => fetchNetworks('public'),
    staleTime: 60_000,
  });
}

function useInvalidateAccounts() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: accountKeys.all });
}

export function useCreateAccount() {
  const invalidate = useInvalidateAccounts();
  const org = useActiveOrganization();
  return useMutation({ mutationFn: (label: string) => createAccount(label, org?.id), onSuccess: invalidate });
}

export function useUpdateAccount() {
  const invalidate = useInvalidateAccounts();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateNtripAccountBody }) => updateAccount(id, body),
    onSuccess: invalidate,
  });
}

export function useRegeneratePassword() {
  const invalidate = useInvalidateAccounts();
  return useMutation({ mutationFn: (id: string) => regeneratePassword(id), onSuccess: invalidate });
}

export function useDeleteAccount() {
  const invalidate = useInvalidateAccounts();
  return useMutation({ mutationFn: (id: string) => deleteAccount(id), onSuccess: invalidate });
}

export function useTestConnection(id: string) {
  return useMutation({ mutationFn: (body: ConnectionTestBody) => testConnection(id, body) });
}

export function useActivateTokens() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TokenActivationBody) => activateTokens(body),
    onSettled: async () => {
      await Promise.all([client.invalidateQueries({ queryKey: accountKeys.all }), invalidateTokenBalances(client)]);
    },
  });
}

export function useAdminAccounts(query: AdminNtripAccountQuery) {
  return useQuery({
    queryKey: accountKeys.admin(query),
    queryFn: () => fetchAdminAccounts(query),
    placeholderData: keepPreviousData,
  });
}

export function useAdminSetEnabled() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) => adminSetEnabled(id, enabled),
    onSuccess: () => client.invalidateQueries({ queryKey: ['admin-ntrip-accounts'] }),
  });
}

export function useAdminSetMaxConnections() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: AdminMaxConnectionsBody }) => adminSetMaxConnections(id, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['admin-ntrip-accounts'] }),
  });
}

export function useAdminGrant() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ManualGrantBody }) => adminGrant(id, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['admin-ntrip-accounts'] }),
  });
}
