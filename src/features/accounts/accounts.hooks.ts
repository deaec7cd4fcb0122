import {
  type AdminMaxConnectionsBody,
  type AdminNtripAccountQuery,
  type ConnectionTestBody,
  DEFAULT_SESSION_PAGE,
  type ManualGrantBody,
  type TokenActivationBody,
  type UpdateNtripAccountBody,
} from '@portal/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useActiveOrganization } from '../auth/active-organization';
import { useUser } from '../auth/auth-context';
import { invalidateTokenBalances } from '../billing/billing.keys';
import { fetchNetworks } from '../catalogue/catalogue.api';
import { catalogueKeys } from '../catalogue/catalogue.hooks';
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
import type { RoverPosition } from './position';

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

/**
 * Where the user said the rover is, per account, for as long as the page is open (issue 32): the card is drawn anew
 * for each tab and each reopening of the dialog, and a position typed once stays for the str2str line and the
 * activation. Kept in the query cache, never fetched nor stored: a reload or a log-out starts empty.
 */
export function useRememberedPosition(
  id: string | undefined,
): [RoverPosition | undefined, (position: RoverPosition | undefined) => void] {
  const client = useQueryClient();
  const queryKey = ['rover-position', id ?? ''] as const;
  const { data } = useQuery<RoverPosition | null>({
    queryKey,
    queryFn: () => null,
    enabled: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
  const remember = useCallback(
    (position: RoverPosition | undefined) => client.setQueryData(['rover-position', id ?? ''], position ?? null),
    [client, id],
  );
  return [data ?? undefined, remember];
}

/**
 * The position (GGA) a rover of the account last reported to the caster, from its newest sessions (the first page of
 * the connection log, which the usage tab shows too); undefined when none sent one.
 */
export function useLastReportedPosition(id: string | undefined) {
  const sessions = useQuery({
    queryKey: [...accountKeys.sessions(id ?? '', 1, DEFAULT_SESSION_PAGE), false],
    queryFn: () => fetchSessions(id ?? '', 1, DEFAULT_SESSION_PAGE),
    enabled: !!id,
  });
  const session = sessions.data?.items.find((s) => s.lastPosition);
  return session?.lastPosition ? { ...session.lastPosition, at: session.endedAt ?? session.startedAt } : undefined;
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
