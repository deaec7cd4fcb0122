import type { CreateProduct, UpdateProduct } from '@portal/contract';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useUser } from '../auth/auth-context';
import {
  archiveProduct,
  assignSubscription,
  cancelOrganizationSubscription,
  cancelSubscription,
  createProduct,
  endSubscription,
  fetchAdminProducts,
  fetchAdminSubscriptions,
  fetchCheckout,
  fetchOrganizationCheckout,
  fetchOrganizationSubscriptions,
  fetchPaymentMethods,
  fetchPayments,
  fetchSubscriptionPricingTables,
  fetchSubscriptions,
  fetchTokenHistory,
  grantTokens,
  removePaymentMethod,
  resumeSubscription,
  setDefaultPaymentMethod,
  updateProduct,
} from './billing.api';
import { billingKeys, invalidateTokenBalances } from './billing.keys';

export { useTokenProducts } from './token-money';

/** Everything that changes when something was bought, cancelled or granted (for `orgId`: its list too). */
export function useRefreshBilling(orgId?: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      invalidateTokenBalances(queryClient),
      ...[
        billingKeys.history,
        billingKeys.payments,
        ...(orgId ? [billingKeys.organizationSubscriptions(orgId)] : []),
      ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
    ]);
}

export function useSubscriptionPricingTables() {
  return useQuery({ queryKey: billingKeys.pricing, queryFn: fetchSubscriptionPricingTables, staleTime: 60_000 });
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

export function usePaymentMethods() {
  const user = useUser();
  return useQuery({ queryKey: billingKeys.paymentMethods, queryFn: fetchPaymentMethods, enabled: !!user });
}

/** Make default or remove a saved card; the answer is the new list. */
export function usePaymentMethodAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, paymentMethodId }: { action: 'default' | 'remove'; paymentMethodId: string }) =>
      action === 'default' ? setDefaultPaymentMethod(paymentMethodId) : removePaymentMethod(paymentMethodId),
    onSuccess: (list) => queryClient.setQueryData(billingKeys.paymentMethods, list),
  });
}

/**
 * The checkout page's session; polled while the provider has not confirmed it yet (at most about a minute), but not
 * while the page shows its payment form (`payHere` and the answer carries what pays it). An organisation's purchase
 * is read through the organisation, where its members may read it too.
 */
export function useCheckoutSession(checkoutSessionId: string | null, orgId?: string, payHere = false) {
  return useQuery({
    queryKey: billingKeys.checkout(checkoutSessionId ?? '', orgId),
    queryFn: () =>
      orgId ? fetchOrganizationCheckout(orgId, checkoutSessionId ?? '') : fetchCheckout(checkoutSessionId ?? ''),
    enabled: !!checkoutSessionId,
    refetchInterval: (query) => {
      const data = query.state.data;
      const paying = payHere && data?.clientSecret !== undefined;
      return data?.status === 'open' && !paying && query.state.dataUpdateCount < 30 ? 2_000 : false;
    },
  });
}

/**
 * Whose subscriptions a page shows: the caller's, every one (admin calls), or an organisation's (cancel is its
 * DELETE; resume is the user-scope call, which the server allows the organisation's owners and admins).
 */
export type SubscriptionScope = 'user' | 'admin' | { orgId: string };

export function useSubscriptionAction(scope: SubscriptionScope = 'user') {
  const refresh = useRefreshBilling();
  const queryClient = useQueryClient();
  const admin = scope === 'admin';
  return useMutation({
    mutationFn: ({ action, subscriptionId }: { action: 'cancel' | 'resume' | 'end'; subscriptionId: string }) =>
      action === 'cancel'
        ? typeof scope === 'object'
          ? cancelOrganizationSubscription(scope.orgId, subscriptionId)
          : cancelSubscription(subscriptionId, admin)
        : action === 'resume'
          ? resumeSubscription(subscriptionId, admin)
          : endSubscription(subscriptionId),
    onSettled: () => {
      void refresh();
      void queryClient.invalidateQueries({ queryKey: billingKeys.adminSubscriptions });
      if (typeof scope === 'object') {
        void queryClient.invalidateQueries({ queryKey: billingKeys.organizationSubscriptions(scope.orgId) });
      }
    },
  });
}

export function useOrganizationSubscriptions(orgId: string) {
  return useQuery({
    queryKey: billingKeys.organizationSubscriptions(orgId),
    queryFn: () => fetchOrganizationSubscriptions(orgId),
  });
}

/** The subscriptions of each of these organisations, cached as the organisation's own page caches them. */
export function useOrganizationsSubscriptions(orgIds: string[]) {
  return useQueries({
    queries: orgIds.map((orgId) => ({
      queryKey: billingKeys.organizationSubscriptions(orgId),
      queryFn: () => fetchOrganizationSubscriptions(orgId),
    })),
  });
}

export function useAdminSubscriptions() {
  return useQuery({ queryKey: billingKeys.adminSubscriptions, queryFn: fetchAdminSubscriptions });
}

export function useGrantTokens() {
  const refresh = useRefreshBilling();
  return useMutation({
    mutationFn: grantTokens,
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
