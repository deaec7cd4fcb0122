import type { CheckoutSession, PaymentMethod, Subscription, UserSubscriptions } from '@portal/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthContext } from '../../../src/features/auth/auth-context';
import { BillingSettingsPage } from '../../../src/features/billing/BillingSettingsPage';
import * as billingApi from '../../../src/features/billing/billing.api';
import { CheckoutPage } from '../../../src/features/billing/CheckoutPage';
import { PaymentMethodsSection } from '../../../src/features/billing/PaymentMethodsSection';
import { RenewalFailedBanner } from '../../../src/features/billing/RenewalFailedBanner';
import * as stripeModule from '../../../src/features/billing/stripe';
import { api } from '../../../src/lib/api';
import { onBillingChange } from '../../../src/lib/billing-channel';
import { fakeUser } from '../support/factories';
import { renderWithProviders } from '../support/render';

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

  it('confirms a completed subscription purchase, tells the other tabs once and pushes subscriptionPurchase once', async () => {
    window.dataLayer = [];
    window.sessionStorage.clear();
    const heard = vi.fn();
    const stopListening = onBillingChange(heard);
    vi.spyOn(billingApi, 'fetchCheckout').mockResolvedValue(session);
    const { unmount, queryClient } = renderWithProviders(<CheckoutPage />, {
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
    await waitFor(() => expect(heard).toHaveBeenCalledTimes(1));
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    // A later answer for the same completed session (a refetch, a re-render) changes nothing any more.
    act(() => {
      queryClient.setQueryData(['checkout', session.id, 'personal'], {
        ...session,
        completedAt: '2026-11-23T12:05:00Z',
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heard).toHaveBeenCalledTimes(1);
    expect(invalidate).not.toHaveBeenCalled();
    stopListening();
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

/** An answer of the API as axios rejects with it. */
const refusal = (status: number, code: string) =>
  Object.assign(new Error(code), { isAxiosError: true, response: { status, data: { code, message: code } } });

describe('/checkout paying in the portal (docs/adr/0031)', () => {
  const open: CheckoutSession = {
    id: '7a1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d',
    transactionId: 'cs_sbx_7',
    status: 'open',
    type: 'Token',
    productName: '100 Tokens',
    priceId: 'price_tokens',
    amount: 1000,
    currency: 'EUR',
    value: 10,
    creditsAmount: 100,
    createdAt: '2026-11-23T12:00:00Z',
  };
  const route = `/checkout?checkoutSessionId=${open.id}`;
  /** The open session as its buyer reads it: with what pays it. */
  const payable = (provider: 'sandbox' | 'stripe'): CheckoutSession => ({
    ...open,
    provider,
    clientSecret: `${provider}_cs_secret_1`,
  });

  it('pays with the sandbox card form in the same page, then confirms the purchase; Stripe.js is never loaded', async () => {
    window.sessionStorage.clear();
    const stripe = vi.spyOn(stripeModule, 'stripeJs');
    const fetched = vi.spyOn(billingApi, 'fetchCheckout').mockResolvedValue(payable('sandbox'));
    const pay = vi
      .spyOn(billingApi, 'paySandboxCheckout')
      .mockRejectedValueOnce(refusal(402, 'card_declined'))
      .mockImplementationOnce(async () => {
        fetched.mockResolvedValue({ ...open, status: 'complete', completedAt: '2026-11-23T12:01:00Z' });
        return { checkoutSessionId: open.id };
      });
    renderWithProviders(<CheckoutPage />, { route, wrapper: signedIn });
    const form = await screen.findByTestId('sandbox-card-form');
    expect(screen.getByTestId('checkout-amount')).toHaveTextContent('€10.00');
    await userEvent.type(within(form).getByLabelText(/Card number/), '4000 0000 0000 0002');
    await userEvent.type(within(form).getByLabelText(/Expiry date/), '12/34');
    await userEvent.type(within(form).getByLabelText(/CVC/), '123');
    await userEvent.click(within(form).getByRole('button', { name: 'Pay €10.00' }));
    expect(await within(form).findByText('Your card was declined. Try another card.')).toBeInTheDocument();

    const card = within(form).getByLabelText(/Card number/);
    await userEvent.clear(card);
    await userEvent.type(card, '4242 4242 4242 4242');
    await userEvent.click(within(form).getByRole('button', { name: 'Pay €10.00' }));
    expect(await screen.findByTestId('checkout-success')).toHaveTextContent('100 tokens (€10.00) have been added');
    expect(pay).toHaveBeenLastCalledWith({
      card: '4242 4242 4242 4242',
      expiry: '12/34',
      cvc: '123',
      clientSecret: 'sandbox_cs_secret_1',
    });
    expect(stripe).not.toHaveBeenCalled();
  });

  it("mounts Stripe's embedded checkout with the session's client secret and follows the session once Stripe completes it", async () => {
    window.sessionStorage.clear();
    const fetched = vi.spyOn(billingApi, 'fetchCheckout').mockResolvedValue(payable('stripe'));
    const mount = vi.fn();
    let complete: (() => void) | undefined;
    const createEmbeddedCheckoutPage = vi.fn(async (options: { clientSecret?: string; onComplete?: () => void }) => {
      complete = options.onComplete;
      return { mount, unmount: vi.fn(), destroy: vi.fn() };
    });
    vi.spyOn(stripeModule, 'stripeJs').mockResolvedValue({ createEmbeddedCheckoutPage } as never);
    renderWithProviders(<CheckoutPage />, { route, wrapper: signedIn });
    await waitFor(() => expect(mount).toHaveBeenCalledWith(expect.any(HTMLDivElement)));
    expect(createEmbeddedCheckoutPage).toHaveBeenCalledWith(
      expect.objectContaining({ clientSecret: 'stripe_cs_secret_1' }),
    );
    expect(screen.queryByTestId('sandbox-card-form')).toBeNull();
    fetched.mockResolvedValue({ ...open, status: 'complete' });
    await act(async () => complete?.());
    expect(await screen.findByTestId('checkout-success')).toBeInTheDocument();
  });

  it('shows no payment form to someone who only follows the session (no client secret): it waits', async () => {
    vi.spyOn(billingApi, 'fetchCheckout').mockResolvedValue(open);
    renderWithProviders(<CheckoutPage />, { route, wrapper: signedIn });
    expect(await screen.findByText('Waiting for the payment to be confirmed...')).toBeInTheDocument();
    expect(screen.queryByTestId('checkout-pay')).toBeNull();
  });
});

describe('saved cards on /settings/billing', () => {
  const visa: PaymentMethod = {
    id: 'pm_1',
    brand: 'visa',
    last4: '4242',
    expMonth: 12,
    expYear: 2034,
    isDefault: true,
  };
  const mastercard: PaymentMethod = {
    id: 'pm_2',
    brand: 'mastercard',
    last4: '4444',
    expMonth: 1,
    expYear: 2035,
    isDefault: false,
  };

  it('lists the cards with the default marked, makes another the default and removes one', async () => {
    vi.spyOn(billingApi, 'fetchPaymentMethods').mockResolvedValue({ paymentMethods: [visa, mastercard] });
    const setDefault = vi.spyOn(billingApi, 'setDefaultPaymentMethod').mockResolvedValue({
      paymentMethods: [
        { ...visa, isDefault: false },
        { ...mastercard, isDefault: true },
      ],
    });
    const remove = vi
      .spyOn(billingApi, 'removePaymentMethod')
      .mockResolvedValue({ paymentMethods: [{ ...mastercard, isDefault: true }] });
    renderWithProviders(<PaymentMethodsSection />, { wrapper: signedIn });
    const rows = await screen.findAllByTestId('payment-method');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('Visa ending in 4242Expires 12/2034Default'),
      expect.stringContaining('Mastercard ending in 4444Expires 01/2035'),
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Make Mastercard ending in 4444 the default card' }));
    expect(setDefault).toHaveBeenCalledWith('pm_2');
    await screen.findByRole('button', { name: 'Make Visa ending in 4242 the default card' });
    await userEvent.click(screen.getByRole('button', { name: 'Remove Visa ending in 4242' }));
    expect(remove).toHaveBeenCalledWith('pm_1');
    await waitFor(() => expect(screen.getAllByTestId('payment-method')).toHaveLength(1));
  });

  it('adds a card with the sandbox form on the client secret of GET /getCustomerSecret', async () => {
    const list = vi.spyOn(billingApi, 'fetchPaymentMethods').mockResolvedValue({ paymentMethods: [] });
    vi.spyOn(billingApi, 'fetchCustomerSecret').mockResolvedValue({
      provider: 'sandbox',
      clientSecret: 'seti_1_secret_2',
    });
    const save = vi.spyOn(billingApi, 'saveSandboxCard').mockResolvedValue(visa);
    renderWithProviders(<PaymentMethodsSection />, { wrapper: signedIn });
    expect(await screen.findByText('No saved cards yet.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add card' }));
    const form = await screen.findByTestId('sandbox-card-form');
    await userEvent.type(within(form).getByLabelText(/Card number/), '4242424242424242');
    await userEvent.type(within(form).getByLabelText(/Expiry date/), '12/34');
    await userEvent.type(within(form).getByLabelText(/CVC/), '123');
    list.mockResolvedValue({ paymentMethods: [visa] });
    await userEvent.click(within(form).getByRole('button', { name: 'Save card' }));
    expect(save).toHaveBeenCalledWith({
      card: '4242424242424242',
      expiry: '12/34',
      cvc: '123',
      clientSecret: 'seti_1_secret_2',
    });
    expect(await screen.findByText('Visa ending in 4242')).toBeInTheDocument();
    expect(screen.queryByTestId('sandbox-card-form')).toBeNull();
  });
});

describe('failed renewal banner', () => {
  const subscription = (status: Subscription['status']): Subscription => ({
    id: `s-${status}`,
    userId: 'u',
    organizationId: null,
    productName: 'RTK Monthly',
    priceId: 'price_1',
    amount: 4900,
    currency: 'EUR',
    interval: 'MONTHLY',
    billable: true,
    status,
    networkIds: [],
    currentPeriodStart: '2026-10-23T12:00:00Z',
    currentPeriodEnd: '2026-11-23T12:00:00Z',
    cancelAtPeriodEnd: false,
    canCancel: true,
    canResume: false,
    createdAt: '2026-10-23T12:00:00Z',
    endedAt: null,
  });

  it('offers "Update card", leading to the saved cards, while a renewal has failed', async () => {
    vi.spyOn(billingApi, 'fetchSubscriptions').mockResolvedValue({
      subscriptions: [subscription('active'), subscription('past_due')],
      tokenAmount: 0,
    });
    renderWithProviders(<RenewalFailedBanner />, { wrapper: signedIn });
    const banner = await screen.findByTestId('renewal-failed');
    expect(banner).toHaveTextContent('The renewal of RTK Monthly failed.');
    expect(within(banner).getByRole('link', { name: 'Update card' })).toHaveAttribute(
      'href',
      '/settings/billing#cards',
    );
  });

  it('shows nothing while every renewal went through', async () => {
    const fetched = vi
      .spyOn(billingApi, 'fetchSubscriptions')
      .mockResolvedValue({ subscriptions: [subscription('active')], tokenAmount: 0 });
    renderWithProviders(<RenewalFailedBanner />, { wrapper: signedIn });
    await waitFor(() => expect(fetched).toHaveBeenCalled());
    expect(screen.queryByTestId('renewal-failed')).toBeNull();
  });
});
