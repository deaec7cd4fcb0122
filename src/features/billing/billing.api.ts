import type {
  AdminSubscription,
  AdminTokenGrant,
  CheckoutCreated,
  CheckoutSession,
  CreateProduct,
  CustomerSecret,
  OrgSubscriptions,
  Payment,
  PaymentMethod,
  PaymentMethods,
  PricingTable,
  Product,
  SandboxCard,
  Subscription,
  TokenHistory,
  UpdateProduct,
  UserSubscriptions,
} from '@portal/contract';
import { api } from '../../lib/api';

/** Billing calls of spec §7, one function each. */

export async function fetchSubscriptionPricingTables(): Promise<PricingTable[]> {
  return (await api.get<PricingTable[]>('/stripe/subscription-pricing-tables')).data;
}

export async function fetchTokenProducts(): Promise<PricingTable[]> {
  return (await api.get<PricingTable[]>('/tokenProducts')).data;
}

/**
 * Creates a checkout session, paid in the portal's own page with its client secret (docs/adr/0031); `orgId` buys a
 * subscription for that organisation.
 */
export async function createCheckout(
  kind: 'Subscription' | 'Token',
  priceId: string,
  orgId?: string,
): Promise<CheckoutCreated> {
  const path = kind === 'Subscription' ? '/checkout/subscription' : '/checkout/product';
  return (await api.post<CheckoutCreated>(path, undefined, { params: { priceId, orgId } })).data;
}

export async function fetchCheckout(checkoutSessionId: string): Promise<CheckoutSession> {
  return (await api.get<CheckoutSession>('/checkout', { params: { checkoutSessionId } })).data;
}

/** `GET /org/{orgId}/checkout`: a session bought for the organisation, readable by all of its members. */
export async function fetchOrganizationCheckout(orgId: string, checkoutSessionId: string): Promise<CheckoutSession> {
  return (await api.get<CheckoutSession>(`/org/${orgId}/checkout`, { params: { checkoutSessionId } })).data;
}

/** The sandbox provider's card form: pays an open session with a test card; the answer says which session. */
export async function paySandboxCheckout(card: SandboxCard): Promise<{ checkoutSessionId: string }> {
  return (await api.post<{ checkoutSessionId: string }>('/sandbox/checkout/pay', card)).data;
}

/** `GET /getCustomerSecret`: a SetupIntent's client secret for saving a card. */
export async function fetchCustomerSecret(): Promise<CustomerSecret> {
  return (await api.get<CustomerSecret>('/getCustomerSecret')).data;
}

/** The sandbox provider's card form: saves a test card on the SetupIntent of `GET /getCustomerSecret`. */
export async function saveSandboxCard(card: SandboxCard): Promise<PaymentMethod> {
  return (await api.post<PaymentMethod>('/sandbox/setup-intents/confirm', card)).data;
}

export async function fetchPaymentMethods(): Promise<PaymentMethods> {
  return (await api.get<PaymentMethods>('/billing/payment-methods')).data;
}

export async function setDefaultPaymentMethod(paymentMethodId: string): Promise<PaymentMethods> {
  const path = `/billing/payment-methods/${encodeURIComponent(paymentMethodId)}/default`;
  return (await api.put<PaymentMethods>(path)).data;
}

export async function removePaymentMethod(paymentMethodId: string): Promise<PaymentMethods> {
  return (await api.delete<PaymentMethods>(`/billing/payment-methods/${encodeURIComponent(paymentMethodId)}`)).data;
}

export async function fetchSubscriptions(): Promise<UserSubscriptions> {
  return (await api.get<UserSubscriptions>('/subscriptions')).data;
}

export async function cancelSubscription(subscriptionId: string, admin = false): Promise<Subscription> {
  return (await api.put<Subscription>(`${admin ? '/admin' : ''}/subscriptions/cancel`, { subscriptionId })).data;
}

export async function resumeSubscription(subscriptionId: string, admin = false): Promise<Subscription> {
  return (await api.put<Subscription>(`${admin ? '/admin' : ''}/subscriptions/resume`, { subscriptionId })).data;
}

export async function fetchTokenHistory(): Promise<TokenHistory> {
  return (await api.get<TokenHistory>('/tokens/history')).data;
}

export async function fetchPayments(): Promise<Payment[]> {
  return (await api.get<{ payments: Payment[] }>('/billing/payments')).data.payments;
}

export async function fetchAdminSubscriptions(): Promise<AdminSubscription[]> {
  return (await api.get<{ subscriptions: AdminSubscription[] }>('/admin/subscriptions')).data.subscriptions;
}

/** `GET /org/{orgId}/subscriptions`: what the organisation is subscribed to, actions narrowed to the caller's role. */
export async function fetchOrganizationSubscriptions(orgId: string): Promise<AdminSubscription[]> {
  return (await api.get<OrgSubscriptions>(`/org/${orgId}/subscriptions`)).data.subscriptions;
}

/** `DELETE /org/{orgId}/subscriptions`: the organisation's cancel (to the period end, docs/adr/0010). */
export async function cancelOrganizationSubscription(orgId: string, subscriptionId: string): Promise<Subscription> {
  return (await api.delete<Subscription>(`/org/${orgId}/subscriptions`, { data: { subscriptionId } })).data;
}

export async function endSubscription(subscriptionId: string): Promise<Subscription> {
  return (await api.delete<Subscription>('/admin/subscriptions', { data: { subscriptionId } })).data;
}

export async function assignSubscription(body: {
  userId: string;
  priceId: string;
  days: number;
}): Promise<Subscription> {
  return (await api.post<Subscription>('/admin/subscriptions', body)).data;
}

export async function grantTokens(grant: AdminTokenGrant): Promise<{ tokenAmount: number }> {
  return (await api.put<{ userId: string; tokenAmount: number }>('/admin/tokens', grant)).data;
}

export async function fetchAdminProducts(query: {
  kind?: 'subscription' | 'token';
  billable?: boolean;
  includeArchived?: boolean;
}): Promise<Product[]> {
  const params = {
    kind: query.kind,
    billable: query.billable === undefined ? undefined : String(query.billable),
    includeArchived: query.includeArchived ? 'true' : undefined,
  };
  return (await api.get<{ products: Product[] }>('/admin/products', { params })).data.products;
}

export async function createProduct(body: CreateProduct): Promise<Product> {
  return (await api.post<Product>('/admin/products', body)).data;
}

export async function updateProduct(productId: string, body: UpdateProduct): Promise<Product> {
  return (await api.put<Product>(`/admin/products/${productId}`, body)).data;
}

export async function archiveProduct(productId: string): Promise<Product> {
  return (await api.delete<Product>(`/admin/products/${productId}`)).data;
}
