import type { CheckoutSession, UserSubscriptions } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthContext } from '../../../src/features/auth/auth-context';
import { BillingSettingsPage } from '../../../src/features/billing/BillingSettingsPage';
import * as billingApi from '../../../src/features/billing/billing.api';
import { CheckoutPage } from '../../../src/features/billing/CheckoutPage';
import { api } from '../../../src/lib/api';
import { renderWithProviders } from '../support/render';
import { fakeUser } from '../support/shell';

const signedIn = (ui: React.ReactNode) => <AuthContext.Provider value={fakeUser()}>{ui}</AuthContext.Provider>;
const noSubscriptions: UserSubscriptions = { subscriptions: [], tokenAmount: 0 };

beforeEach(() => {
  // Page meta is not what these tests are about.
  vi.spyOn(api, 'get').mockRejectedValue(new Error('offline'));
});
afterEach(() => vi.restoreAllMocks());

describe('/settings/billing dialogs (spec §8)', () => {
  it("shows 'Could Not Retrieve Billing Details' when billing cannot be read", async () => {
    vi.spyOn(billingApi, 'fetchPayments').mockRejectedValue(new Error('500'));
    vi.spyOn(billingApi, 'fetchSubscriptions').mockResolvedValue(noSubscriptions);
    renderWithProviders(<BillingSettingsPage />, { wrapper: signedIn });
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Could Not Retrieve Billing Details');
    expect(dialog).toHaveTextContent(
      'An error occurred while retrieving your billing information. Please refresh the page and try again.',
    );
    expect(within(dialog).getAllByRole('button', { name: 'Close' }).length).toBeGreaterThan(0);
  });

  it("shows 'No Billing History' when there are no payments and no subscriptions", async () => {
    vi.spyOn(billingApi, 'fetchPayments').mockResolvedValue([]);
    vi.spyOn(billingApi, 'fetchSubscriptions').mockResolvedValue(noSubscriptions);
    renderWithProviders(<BillingSettingsPage />, { wrapper: signedIn });
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('No Billing History');
    expect(dialog).toHaveTextContent("We couldn't find any active subscriptions or billing history for your account.");
  });

  it('lists payments with their invoice links and no dialog', async () => {
    vi.spyOn(billingApi, 'fetchPayments').mockResolvedValue([
      {
        id: 'p1',
        description: '100 Tokens',
        amount: 1000,
        currency: 'EUR',
        status: 'paid',
        refundedAmount: 0,
        invoiceNumber: 'SBX-2026-1',
        invoiceUrl: 'https://invoices.example/1',
        createdAt: '2026-11-23T12:00:00Z',
      },
    ]);
    vi.spyOn(billingApi, 'fetchSubscriptions').mockResolvedValue(noSubscriptions);
    renderWithProviders(<BillingSettingsPage />, { wrapper: signedIn });
    const link = await screen.findByRole('link', { name: 'SBX-2026-1' });
    expect(link).toHaveAttribute('href', 'https://invoices.example/1');
    expect(screen.getByText('€10.00')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('/checkout return page', () => {
  const session: CheckoutSession = {
    id: '5d8b9a38-2f5c-4bd4-9d53-0d9d6f5c1a11',
    transactionId: 'cs_sbx_42',
    status: 'complete',
    type: 'Subscription',
    productName: 'RTK Monthly',
    priceId: 'price_1',
    amount: 4900,
    currency: 'GBP',
    value: 49,
    subscriptionId: 'sub-1',
    createdAt: '2026-11-23T12:00:00Z',
  };

  it('confirms a completed subscription purchase and pushes subscriptionPurchase once', async () => {
    window.dataLayer = [];
    window.sessionStorage.clear();
    vi.spyOn(billingApi, 'fetchCheckout').mockResolvedValue(session);
    const { unmount } = renderWithProviders(<CheckoutPage />, {
      route: `/checkout?checkoutSessionId=${session.id}`,
      wrapper: signedIn,
    });
    expect(await screen.findByTestId('checkout-success')).toHaveTextContent(
      'Your subscription RTK Monthly (£49.00) is active.',
    );
    await waitFor(() =>
      expect(window.dataLayer).toEqual([
        { event: 'subscriptionPurchase', value: 49, currency: 'GBP', transactionId: 'cs_sbx_42' },
      ]),
    );
    unmount();
    renderWithProviders(<CheckoutPage />, { route: `/checkout?checkoutSessionId=${session.id}`, wrapper: signedIn });
    await screen.findByTestId('checkout-success');
    expect(window.dataLayer).toHaveLength(1);
  });

  it("reads an organisation's purchase through GET /org/{orgId}/checkout and leads back to the organisation", async () => {
    window.sessionStorage.clear();
    const orgId = '0b7c6a2e-3f4d-4e5a-9b8c-1d2e3f4a5b6c';
    const get = vi.spyOn(api, 'get').mockImplementation(async (url) => {
      if (url === `/org/${orgId}/checkout`) return { data: session };
      throw new Error(`unexpected GET ${url}`);
    });
    renderWithProviders(<CheckoutPage />, {
      route: `/checkout?checkoutSessionId=${session.id}&orgId=${orgId}`,
      wrapper: signedIn,
    });
    expect(await screen.findByTestId('checkout-success')).toHaveTextContent(
      "The organisation's subscription RTK Monthly (£49.00) is active.",
    );
    expect(screen.getByTestId('checkout-continue')).toHaveAttribute('href', `/settings/organization?org=${orgId}`);
    expect(get).toHaveBeenCalledWith(`/org/${orgId}/checkout`, { params: { checkoutSessionId: session.id } });
    expect(get).not.toHaveBeenCalledWith('/checkout', expect.anything());
  });

  it('says nothing was bought when the checkout was cancelled', async () => {
    window.dataLayer = [];
    vi.spyOn(billingApi, 'fetchCheckout').mockResolvedValue({ ...session, id: 'other', status: 'open' });
    renderWithProviders(<CheckoutPage />, {
      route: '/checkout?checkoutSessionId=other&cancelled=true',
      wrapper: signedIn,
    });
    expect(await screen.findByTestId('checkout-not-completed')).toBeInTheDocument();
    expect(window.dataLayer).toEqual([]);
  });
});
