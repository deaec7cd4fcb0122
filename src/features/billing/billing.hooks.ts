import type { CreateProduct, UpdateProduct } from '@portal/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useUser } from '../auth/auth-context';
import {
  archiveProduct,
  assignSubscription,
  cancelSubscription,
  createProduct,
  endSubscription,
  fetchAdminProducts,
  fetchAdminSubscriptions,
  fetchCheckout,
  fetchPayments,
  fetchSubscriptionPricingTables,
  fetchSubscriptions,
  fetchTokenHistory,
  fetchTokenProducts,
  grantTokens,
  resumeSubscription,
  updateProduct,
} from './billing.api';

export const billingKeys = {
  pricing: ['pricing-tables'] as const,
  tokenProducts: ['token-products'] as const,
  subscriptions: ['subscriptions'] as const,
  history: ['token-history'] as const,
  payments: ['payments'] as const,
  checkout: (id: string) => ['checkout', id] as const,
  adminSubscriptions: ['admin-subscriptions'] as const,
  adminProducts: ['admin-products'] as const,
};

/** The header's balance query lives in the shell (src/app/layout/useTokenBalance.ts); billing refreshes it. */
export const TOKEN_BALANCE_KEY = ['token-balance'] as const;

/** Everything that changes when something was bought, cancelled or granted. */
export function useRefreshBilling() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [TOKEN_BALANCE_KEY, billingKeys.subscriptions, billingKeys.history, billingKeys.payments].map((queryKey) =>
        queryClient.invalidateQueries({ queryKey }),
      ),
    );
}

export function useSubscriptionPricingTables() {
  return useQuery({ queryKey: billingKeys.pricing, queryFn: fetchSubscriptionPricingTables, staleTime: 60_000 });
}

export function useTokenProducts() {
  const user = useUser();
  return useQuery({
    queryKey: billingKeys.tokenProducts,
    queryFn: fetchTokenProducts,
    enabled: !!user,
    staleTime: 60_000,
  });
}

export function useSubscriptions() {
  const user = useUser();
  return useQuery({ queryKey: billingKeys.subscriptions, queryFn: fetchSubscriptions, enabled: !!user });
}

export function useTokenHistory() {
  const user = useUser();
  return useQuery({ queryKey: billingKeys.history, queryFn: fetchTokenHistory, enabled: !!user });
}

export function usePayments() {
  const user = useUser();
  return useQuery({ queryKey: billingKeys.payments, queryFn: fetchPayments, enabled: !!user });
}

/** The return page's session; polled while the provider has not confirmed it yet (at most about a minute). */
export function useCheckoutSession(checkoutSessionId: string | null) {
  return useQuery({
    queryKey: billingKeys.checkout(checkoutSessionId ?? ''),
    queryFn: () => fetchCheckout(checkoutSessionId ?? ''),
    enabled: !!checkoutSessionId,
    refetchInterval: (query) =>
      query.state.data?.status === 'open' && query.state.dataUpdateCount < 30 ? 2_000 : false,
  });
}

export function useSubscriptionAction(admin = false) {
  const refresh = useRefreshBilling();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, subscriptionId }: { action: 'cancel' | 'resume' | 'end'; subscriptionId: string }) =>
      action === 'cancel'
        ? cancelSubscription(subscriptionId, admin)
        : action === 'resume'
          ? resumeSubscription(subscriptionId, admin)
          : endSubscription(subscriptionId),
    onSettled: () => {
      void refresh();
      void queryClient.invalidateQueries({ queryKey: billingKeys.adminSubscriptions });
    },
  });
}

export function useAdminSubscriptions() {
  return useQuery({ queryKey: billingKeys.adminSubscriptions, queryFn: fetchAdminSubscriptions });
}

export function useGrantTokens() {
  const refresh = useRefreshBilling();
  return useMutation({
    mutationFn: ({ userId, tokenAmount }: { userId: string; tokenAmount: number }) => grantTokens(userId, tokenAmount),
    onSuccess: () => void refresh(),
  });
}

export function useAssignSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: assignSubscription,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: billingKeys.adminSubscriptions }),
  });
}

export function useAdminProducts(query: { kind: 'subscription' | 'token'; billable?: boolean }) {
  return useQuery({
    queryKey: [...billingKeys.adminProducts, query],
    queryFn: () => fetchAdminProducts(query),
  });
}

export function useProductMutations() {
  const queryClient = useQueryClient();
  const settle = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: billingKeys.adminProducts }),
      queryClient.invalidateQueries({ queryKey: billingKeys.pricing }),
      queryClient.invalidateQueries({ queryKey: billingKeys.tokenProducts }),
    ]);
  return {
    create: useMutation({ mutationFn: (body: CreateProduct) => createProduct(body), onSuccess: settle }),
    update: useMutation({
      mutationFn: ({ id, body }: { id: string; body: UpdateProduct }) => updateProduct(id, body),
      onSuccess: settle,
    }),
    archive: useMutation({ mutationFn: (id: string) => archiveProduct(id), onSuccess: settle }),
  };
}
