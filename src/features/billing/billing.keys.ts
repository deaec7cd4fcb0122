import type { QueryClient } from '@tanstack/react-query';

/**
 * The billing resources' query keys, one per resource, in a module without calls: the header's balance and other
 * features refresh them without loading axios and the contract with the shell.
 */
export const billingKeys = {
  pricing: ['pricing-tables'] as const,
  tokenProducts: ['token-products'] as const,
  /** `GET /subscriptions`: the caller's subscriptions and token balance (spec §7). */
  subscriptions: ['subscriptions'] as const,
  history: ['token-history'] as const,
  payments: ['payments'] as const,
  paymentMethods: ['payment-methods'] as const,
  checkout: (id: string, orgId?: string) => ['checkout', id, orgId ?? 'personal'] as const,
  adminSubscriptions: ['admin-subscriptions'] as const,
  organizationSubscriptions: (orgId: string) => ['org', orgId, 'subscriptions'] as const,
  /** `GET /org/{orgId}/tokens`: the organisation's balance, which its NTRIP accounts spend. */
  organizationTokens: (orgId: string) => ['org', orgId, 'tokens'] as const,
  adminProducts: ['admin-products'] as const,
};

/** Billing details, tax and invoices (docs/adr/0029). */
export const invoicingKeys = {
  details: (orgId?: string) => ['billing-details', orgId ?? 'personal'] as const,
  invoices: ['invoices'] as const,
  taxInfo: ['tax-info'] as const,
  taxSettings: ['admin-tax-settings'] as const,
  allAdminInvoices: ['admin-invoices'] as const,
  adminInvoices: (q: object) => ['admin-invoices', q] as const,
  allAdminPayments: ['admin-payments'] as const,
  adminPayments: (q: object) => ['admin-payments', q] as const,
};

const isOrganizationTokens = (key: readonly unknown[]) => key[0] === 'org' && key[2] === 'tokens';

/** Every token balance the page may show (the caller's and each organisation's): after a purchase, grant or spend. */
export function invalidateTokenBalances(client: QueryClient) {
  return Promise.all([
    client.invalidateQueries({ queryKey: billingKeys.subscriptions }),
    client.invalidateQueries({ predicate: (query) => isOrganizationTokens(query.queryKey) }),
  ]);
}
