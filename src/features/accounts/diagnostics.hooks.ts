import type { LoginFailureQuery } from '@portal/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { fetchLoginFailures, fetchRefusals } from './diagnostics.api';

/**
 * How often the diagnostics refresh while shown: a rover's failed attempt should show while its owner is still
 * looking at the page, within a few seconds, without a reload.
 */
export const DIAGNOSTICS_REFRESH_MS = 3_000;

export const diagnosticsKeys = {
  refusals: (accountId: string, admin: boolean) => ['ntrip-diagnostics', accountId, 'refusals', admin] as const,
  loginFailures: (query: LoginFailureQuery) => ['ntrip-diagnostics', 'login-failures', query] as const,
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
