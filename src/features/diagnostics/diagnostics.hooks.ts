import type { LoginFailureQuery } from '@portal/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  fetchAdminLiveSessions,
  fetchLiveSessions,
  fetchLiveSources,
  fetchLoginFailures,
  fetchRefusals,
} from './diagnostics.api';

/**
 * How often the diagnostics refresh while shown: a rover's failed attempt should show while its owner is still
 * looking at the page, within a few seconds, without a reload.
 */
export const DIAGNOSTICS_REFRESH_MS = 3_000;

export const diagnosticsKeys = {
  refusals: (accountId: string, admin: boolean) => ['ntrip-diagnostics', accountId, 'refusals', admin] as const,
  loginFailures: (query: LoginFailureQuery) => ['ntrip-diagnostics', 'login-failures', query] as const,
  liveSessions: (accountId: string) => ['ntrip-diagnostics', accountId, 'live-sessions'] as const,
  adminLiveSessions: ['ntrip-diagnostics', 'admin-live-sessions'] as const,
  liveSources: ['ntrip-diagnostics', 'live-sources'] as const,
};

export function useRefusals(accountId: string, admin = false) {
  return useQuery({
    queryKey: diagnosticsKeys.refusals(accountId, admin),
    queryFn: () => fetchRefusals(accountId, admin),
    refetchInterval: DIAGNOSTICS_REFRESH_MS,
  });
}

export function useLoginFailures(query: LoginFailureQuery) {
  return useQuery({
    queryKey: diagnosticsKeys.loginFailures(query),
    queryFn: () => fetchLoginFailures(query),
    refetchInterval: DIAGNOSTICS_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
}

export function useLiveSessions(accountId: string, admin = false) {
  return useQuery({
    queryKey: [...diagnosticsKeys.liveSessions(accountId), admin],
    queryFn: () => fetchLiveSessions(accountId, admin),
    refetchInterval: DIAGNOSTICS_REFRESH_MS,
  });
}

export function useAdminLiveSessions() {
  return useQuery({
    queryKey: diagnosticsKeys.adminLiveSessions,
    queryFn: fetchAdminLiveSessions,
    refetchInterval: DIAGNOSTICS_REFRESH_MS,
  });
}

/** The base stations connected now, for the admin feed list; shared by every network's page. */
export function useLiveSources() {
  return useQuery({
    queryKey: diagnosticsKeys.liveSources,
    queryFn: fetchLiveSources,
    refetchInterval: DIAGNOSTICS_REFRESH_MS,
  });
}
