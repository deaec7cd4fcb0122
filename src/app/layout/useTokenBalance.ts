import { useQuery } from '@tanstack/react-query';
import { useUser } from '../../features/auth/auth-context';
import { api } from '../../lib/api';

/** The header's token balance: `tokenAmount` of GET /subscriptions (spec §7). Undefined while unknown. */
export function useTokenBalance(): { balance: number | undefined; isError: boolean } {
  const user = useUser();
  const query = useQuery({
    queryKey: ['token-balance', user?.uid],
    enabled: Boolean(user),
    retry: false,
    staleTime: 30_000,
    queryFn: async () => {
      const { data } = await api.get<{ tokenAmount?: unknown }>('/subscriptions');
      const amount = Number(data?.tokenAmount);
      return Number.isFinite(amount) ? amount : 0;
    },
  });
  return { balance: query.data, isError: query.isError };
}
