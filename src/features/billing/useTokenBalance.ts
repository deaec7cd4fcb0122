import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onBillingChange } from '../../lib/billing-channel';
import { useUser } from '../auth/auth-context';
import { useActiveOrganization } from '../organizations/active-organization';

/** What a purchase changes in the other tabs. */
const BILLING_QUERY_KEYS = [['token-balance'], ['subscriptions'], ['token-history'], ['payments'], ['invoices']];

/**
 * The header's token balance: `tokenAmount` of GET /subscriptions (spec §7), or of the organisation chosen in the
 * switcher (GET /org/{orgId}/tokens), whose tokens its accounts spend. Undefined while unknown. It refetches when
 * another tab announces a purchase and when the tab gets the focus back (a tab the channel missed).
 */
export function useTokenBalance(): { balance: number | undefined; isError: boolean } {
  const user = useUser();
  const org = useActiveOrganization();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ['token-balance', user?.uid, org?.id ?? null],
    enabled: Boolean(user),
    retry: false,
    staleTime: 30_000,
    refetchOnWindowFocus: 'always',
    queryFn: async () => {
      // The header asks for it: axios comes with the first call, not with the shell.
      const { api } = await import('../../lib/api');
      const { data } = await api.get<{ tokenAmount?: unknown }>(org ? `/org/${org.id}/tokens` : '/subscriptions');
      const amount = Number(data?.tokenAmount);
      return Number.isFinite(amount) ? amount : 0;
    },
  });

  useEffect(() => {
    if (!user) return;
    return onBillingChange(() => {
      for (const queryKey of BILLING_QUERY_KEYS) void queryClient.invalidateQueries({ queryKey });
    });
  }, [user, queryClient]);

  return { balance: query.data, isError: query.isError };
}
