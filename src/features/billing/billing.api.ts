import type {
  AdminSubscription,
  AdminTokenGrant,
  CheckoutCreated,
  CheckoutSession,
  CreateProduct,
  CustomerSecret,
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
import { answer } from '../../lib/answer';
import { api } from '../../lib/api';

/** Billing calls of spec §7, one function each; every answer is typed by its contract schema (lib/answer.ts). */

export async function fetchSubscriptionPricingTables(): Promise<PricingTable[]> {
  return answer('pricingTablesSchema', (await api.get('/stripe/subscription-pricing-tables')).data);
}

export async function fetchTokenProducts(): Promise<PricingTable[]> {
  return answer('pricingTablesSchema', (await api.get('/tokenProducts')).data);
}

/** `GET /org/{orgId}/tokens`: the organisation's token balance, which its NTRIP accounts spend. */
export async function fetchOrganizationTokens(orgId: string): Promise<number> {
  return (await answer('organizationTokensSchema', (await api.get(`/org/${orgId}/tokens`)).data)).tokenAmount;
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
  return answer('checkoutCreatedSchema', (await api.post(path, undefined, { params: { priceId, orgId } })).data);
}

export async function fetchCheckout(checkoutSessionId: string): Promise<CheckoutSession> {
  return answer('checkoutSessionSchema', (await api.get('/checkout', { params: { checkoutSessionId } })).data);
}

/** `GET /org/{orgId}/checkout`: a session bought for the organisation, readable by all of its members. */
export async function fetchOrganizationCheckout(orgId: string, checkoutSessionId: string): Promise<CheckoutSession> {
  const { data } = await api.get(`/org/${orgId}/checkout`, { params: { checkoutSessionId } });
  return answer('checkoutSessionSchema', data);
}

/** The sandbox provider's card form: pays an open session with a test card; the answer says which session. */
export async function paySandboxCheckout(card: SandboxCard): Promise<{ checkoutSessionId: string }> {
  return answer('sandboxPaidSchema', (await api.post('/sandbox/checkout/pay', card)).data);
}

/** `GET /getCustomerSecret`: a SetupIntent's client secret for saving a card. */
export async function fetchCustomerSecret(): Promise<CustomerSecret> {
  return answer('customerSecretSchema', (await api.get('/getCustomerSecret')).data);
}

/** The sandbox provider's card form: saves a test card on the SetupIntent of `GET /getCustomerSecret`. */
export async function saveSandboxCard(card: SandboxCard): Promise<PaymentMethod> {
  return answer('paymentMethodSchema', (await api.post('/sandbox/setup-intents/confirm', card)).data);
}

export async function fetchPaymentMethods(): Promise<PaymentMethods> {
  return answer('paymentMethodsSchema', (await api.get('/billing/payment-methods')).data);
}

export async function setDefaultPaymentMethod(paymentMethodId: string): Promise<PaymentMethods> {
  const path = `/billing/payment-methods/${encodeURIComponent(paymentMethodId)}/default`;
  return answer('paymentMethodsSchema', (await api.put(path)).data);
}

export async function removePaymentMethod(paymentMethodId: string): Promise<PaymentMethods> {
  const path = `/billing/payment-methods/${encodeURIComponent(paymentMethodId)}`;
  return answer('paymentMethodsSchema', (await api.delete(path)).data);
}

/** `GET /subscriptions`: the caller's subscriptions and token balance; the one fetch of it (billing.keys.ts). */
export async function fetchSubscriptions(): Promise<UserSubscriptions> {
  return answer('userSubscriptionsSchema', (await api.get('/subscriptions')).data);
}

export async function cancelSubscription(subscriptionId: string, admin = false): Promise<Subscription> {
  const { data } = await api.put(`${admin ? '/admin' : ''}/subscriptions/cancel`, { subscriptionId });
  return answer('subscriptionSchema', data);
}

export async function resumeSubscription(subscriptionId: string, admin = false): Promise<Subscription> {
  const { data } = await api.put(`${admin ? '/admin' : ''}/subscriptions/resume`, { subscriptionId });
  return answer('subscriptionSchema', data);
}

export async function fetchTokenHistory(): Promise<TokenHistory> {
  return answer('tokenHistorySchema', (await api.get('/tokens/history')).data);
}

export async function fetchPayments(): Promise<Payment[]> {
  return (await answer('paymentHistorySchema', (await api.get('/billing/payments')).data)).payments;
}

export async function fetchAdminSubscriptions(): Promise<AdminSubscription[]> {
  return (await answer('adminSubscriptionsSchema', (await api.get('/admin/subscriptions')).data)).subscriptions;
}

/** `GET /org/{orgId}/subscriptions`: what the organisation is subscribed to, actions narrowed to the caller's role. */
export async function fetchOrganizationSubscriptions(orgId: string): Promise<AdminSubscription[]> {
  return (await answer('orgSubscriptionsSchema', (await api.get(`/org/${orgId}/subscriptions`)).data)).subscriptions;
}

/** `DELETE /org/{orgId}/subscriptions`: the organisation's cancel (to the period end, docs/adr/0010). */
export async function cancelOrganizationSubscription(orgId: string, subscriptionId: string): Promise<Subscription> {
  return answer(
    'subscriptionSchema',
    (await api.delete(`/org/${orgId}/subscriptions`, { data: { subscriptionId } })).data,
  );
}

export async function endSubscription(subscriptionId: string): Promise<Subscription> {
  return answer('subscriptionSchema', (await api.delete('/admin/subscriptions', { data: { subscriptionId } })).data);
}

export async function assignSubscription(body: {
  userId: string;
  priceId: string;
  days: number;
}): Promise<Subscription> {
  return answer('subscriptionSchema', (await api.post('/admin/subscriptions', body)).data);
}

export async function grantTokens(grant: AdminTokenGrant): Promise<{ tokenAmount: number }> {
  return answer('tokenBalanceSchema', (await api.put('/admin/tokens', grant)).data);
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
  return (await answer('productListSchema', (await api.get('/admin/products', { params })).data)).products;
}

export async function createProduct(body: CreateProduct): Promise<Product> {
  return answer('productSchema', (await api.post('/admin/products', body)).data);
}

export async function updateProduct(productId: string, body: UpdateProduct): Promise<Product> {
  return answer('productSchema', (await api.put(`/admin/products/${productId}`, body)).data);
}

export async function archiveProduct(productId: string): Promise<Product> {
  return answer('productSchema', (await api.delete(`/admin/products/${productId}`)).data);
}
