import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onBillingChange } from '../../lib/billing-channel';
import { useActiveOrganization } from '../auth/active-organization';
import { useUser } from '../auth/auth-context';
import { billingKeys, invalidateTokenBalances, invoicingKeys } from './billing.keys';

/** What a purchase changes in the other tabs (besides the balances). */
const BILLING_QUERY_KEYS = [billingKeys.history, billingKeys.payments, invoicingKeys.invoices];

// The header asks for the balance: axios and the contract come with the first call, not with the shell.
const fetchSubscriptions = async () => (await import('./billing.api')).fetchSubscriptions();
const fetchOrganizationTokens = async (orgId: string) => (await import('./billing.api')).fetchOrganizationTokens(orgId);

/**
 * The header's token balance: `tokenAmount` of GET /subscriptions (spec §7, the same query as the subscription
 * pages), or of the organisation chosen in the switcher (GET /org/{orgId}/tokens), whose tokens its accounts spend.
 * Undefined while unknown. It refetches when another tab announces a purchase and when the tab gets the focus back
 * (a tab the channel missed).
 */
export function useTokenBalance(): { balance: number | undefined; isError: boolean } {
  const user = useUser();
  const org = useActiveOrganization();
  const queryClient = useQueryClient();
  const options = { retry: false, staleTime: 30_000, refetchOnWindowFocus: 'always' } as const;
  const personal = useQuery({
    ...options,
    queryKey: billingKeys.subscriptions,
    queryFn: fetchSubscriptions,
    enabled: Boolean(user) && !org,
    select: (data) => data.tokenAmount,
  });
  const organization = useQuery({
    ...options,
    queryKey: billingKeys.organizationTokens(org?.id ?? ''),
    queryFn: () => fetchOrganizationTokens(org?.id ?? ''),
    enabled: Boolean(user) && Boolean(org),
  });

  useEffect(() => {
    if (!user) return;
    return onBillingChange(() => {
      void invalidateTokenBalances(queryClient);
      for (const queryKey of BILLING_QUERY_KEYS) void queryClient.invalidateQueries({ queryKey });
    });
  }, [user, queryClient]);

  const query = org ? organization : personal;
  return { balance: query.data, isError: query.isError };
}
