import type { CheckoutSession, PaymentMethods, Subscription, UserSubscriptions } from '@portal/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthContext } from '../../../src/features/auth/auth-context';
import { BillingSettingsPage } from '../../../src/features/billing/BillingSettingsPage';
import { billingKeys } from '../../../src/features/billing/billing.keys';
import { CheckoutPage } from '../../../src/features/billing/CheckoutPage';
import { PaymentMethodsSection } from '../../../src/features/billing/PaymentMethodsSection';
import { RenewalFailedBanner } from '../../../src/features/billing/RenewalFailedBanner';
import * as stripeModule from '../../../src/features/billing/stripe';
import { onBillingChange } from '../../../src/lib/billing-channel';
import { checkoutSession, fakeUser, payment, paymentMethod, subscription } from '../support/factories';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

const signedIn = (ui: React.ReactNode) => <AuthContext.Provider value={fakeUser()}>{ui}</AuthContext.Provider>;
const noSubscriptions: UserSubscriptions = { subscriptions: [], tokenAmount: 0 };

/** An error answer of the API, as the server sends it (a machine-readable code and a message). */
const refusal = (status: number, code: string) => HttpResponse.json({ code, message: code }, { status });

beforeEach(() => {
  server.use(
    // Page meta is not what these tests are about.
    http.get('*/api/meta/pages/*', () => refusal(404, 'not_found')),
    http.get('*/api/billing/tax-info', () => HttpResponse.json({ pricesIncludeTax: false })),
  );
});
afterEach(() => vi.restoreAllMocks());

/** What /settings/billing reads besides the payments: the user's subscriptions, cards, invoices and details. */
function serveBillingSettings(subscriptions: UserSubscriptions = noSubscriptions) {
  server.use(
    http.get('*/api/subscriptions', () => HttpResponse.json(subscriptions)),
    http.get('*/api/billing/payment-methods', () => HttpResponse.json({ paymentMethods: [] })),
    http.get('*/api/billing/invoices', () => HttpResponse.json({ invoices: [] })),
    http.get('*/api/billing/details', () => HttpResponse.json({ details: null })),
  );
}

describe('/settings/billing dialogs (spec §8)', () => {
  it("shows 'Could Not Retrieve Billing Details' when billing cannot be read", async () => {
    serveBillingSettings();
    server.use(http.get('*/api/billing/payments', () => refusal(500, 'internal')));
    renderWithProviders(<BillingSettingsPage />, { wrapper: signedIn });
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Could Not Retrieve Billing Details');
    expect(dialog).toHaveTextContent(
      'An error occurred while retrieving your billing information. Please refresh the page and try again.',
    );
    expect(within(dialog).getAllByRole('button', { name: 'Close' }).length).toBeGreaterThan(0);
  });

  it("shows 'No Billing History' when there are no payments and no subscriptions", async () => {
    serveBillingSettings();
    server.use(http.get('*/api/billing/payments', () => HttpResponse.json({ payments: [] })));
    renderWithProviders(<BillingSettingsPage />, { wrapper: signedIn });
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('No Billing History');
    expect(dialog).toHaveTextContent("We couldn't find any active subscriptions or billing history for your account.");
  });

  it('lists payments with their invoice links and no dialog', async () => {
    serveBillingSettings();
    server.use(http.get('*/api/billing/payments', () => HttpResponse.json({ payments: [payment()] })));
    renderWithProviders(<BillingSettingsPage />, { wrapper: signedIn });
    const link = await screen.findByRole('link', { name: 'SBX-2026-1' });
    expect(link).toHaveAttribute('href', 'https://invoices.example/1');
    expect(screen.getByText('€10.00')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

/** Answers `GET /checkout` (and an organisation's `GET /org/{orgId}/checkout`) with `current()`, recording the paths. */
function serveCheckout(current: () => CheckoutSession) {
  const paths: string[] = [];
  const answer = ({ request }: { request: Request }) => {
    const url = new URL(request.url);
    paths.push(`${url.pathname}${url.search}`);
    return HttpResponse.json(current());
  };
  server.use(http.get('*/api/checkout', answer), http.get('*/api/org/:orgId/checkout', answer));
  return paths;
}

/** What a completed purchase refreshes: the balances, the subscriptions, the token history and the payments. */
function serveBillingRefresh() {
  server.use(
    http.get('*/api/subscriptions', () => HttpResponse.json(noSubscriptions)),
    http.get('*/api/tokens/history', () => HttpResponse.json({ tokenAmount: 0, entries: [] })),
    http.get('*/api/billing/payments', () => HttpResponse.json({ payments: [] })),
  );
}

describe('/checkout return page', () => {
  const session = checkoutSession();

  it('confirms a completed subscription purchase, tells the other tabs once and pushes subscriptionPurchase once', async () => {
    window.dataLayer = [];
    window.sessionStorage.clear();
    serveCheckout(() => session);
    const heard = vi.fn();
    const stopListening = onBillingChange(heard);
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
    await act(async () => {
      queryClient.setQueryData(['checkout', session.id, 'personal'], {
        ...session,
        completedAt: '2026-11-23T12:05:00Z',
      });
    });
    // The channel delivers in order: once this test's own message is heard, an announcement the page made is too.
    const sentinel = new BroadcastChannel('portal-billing');
    sentinel.postMessage({ type: 'test-sentinel' });
    sentinel.close();
    await vi.waitFor(() =>
      expect(heard).toHaveBeenCalledWith(expect.objectContaining({ data: { type: 'test-sentinel' } })),
    );
    expect(heard).toHaveBeenCalledTimes(2);
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
    const paths = serveCheckout(() => session);
    serveBillingRefresh();
    server.use(http.get(`*/api/org/${orgId}/subscriptions`, () => HttpResponse.json({ subscriptions: [] })));
    renderWithProviders(<CheckoutPage />, {
      route: `/checkout?checkoutSessionId=${session.id}&orgId=${orgId}`,
      wrapper: signedIn,
    });
    expect(await screen.findByTestId('checkout-success')).toHaveTextContent(
      "The organisation's subscription RTK Monthly (£49.00) is active.",
    );
    expect(screen.getByTestId('checkout-continue')).toHaveAttribute('href', `/settings/organization?org=${orgId}`);
    expect(paths).toEqual([`/api/org/${orgId}/checkout?checkoutSessionId=${session.id}`]);
  });

  it('says nothing was bought when the checkout was cancelled', async () => {
    window.dataLayer = [];
    serveCheckout(() => ({ ...session, id: 'other', status: 'open' }));
    renderWithProviders(<CheckoutPage />, {
      route: '/checkout?checkoutSessionId=other&cancelled=true',
      wrapper: signedIn,
    });
    expect(await screen.findByTestId('checkout-not-completed')).toBeInTheDocument();
    expect(window.dataLayer).toEqual([]);
  });
});

describe('/checkout paying in the portal (docs/adr/0031)', () => {
  const open = checkoutSession({
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
    subscriptionId: undefined,
  });
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
    let current = payable('sandbox');
    serveCheckout(() => current);
    serveBillingRefresh();
    const paid: unknown[] = [];
    server.use(
      http.post('*/api/sandbox/checkout/pay', async ({ request }) => {
        paid.push(await request.json());
        if (paid.length === 1) return refusal(402, 'card_declined');
        current = { ...open, status: 'complete', completedAt: '2026-11-23T12:01:00Z' };
        return HttpResponse.json({ checkoutSessionId: open.id });
      }),
    );
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
    expect(paid).toEqual([
      { card: '4000 0000 0000 0002', expiry: '12/34', cvc: '123', clientSecret: 'sandbox_cs_secret_1' },
      { card: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', clientSecret: 'sandbox_cs_secret_1' },
    ]);
    expect(stripe).not.toHaveBeenCalled();
  });

  it("mounts Stripe's embedded checkout with the session's client secret and follows the session once Stripe completes it", async () => {
    window.sessionStorage.clear();
    let current = payable('stripe');
    serveCheckout(() => current);
    serveBillingRefresh();
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
    current = { ...open, status: 'complete' };
    await act(async () => complete?.());
    expect(await screen.findByTestId('checkout-success')).toBeInTheDocument();
  });

  it('shows no payment form to someone who only follows the session (no client secret): it waits', async () => {
    serveCheckout(() => open);
    renderWithProviders(<CheckoutPage />, { route, wrapper: signedIn });
    expect(await screen.findByText('Waiting for the payment to be confirmed...')).toBeInTheDocument();
    expect(screen.queryByTestId('checkout-pay')).toBeNull();
  });
});

describe('saved cards on /settings/billing', () => {
  const visa = paymentMethod();
  const mastercard = paymentMethod({
    id: 'pm_2',
    brand: 'mastercard',
    last4: '4444',
    expMonth: 1,
    expYear: 2035,
    isDefault: false,
  });

  it('lists the cards with the default marked, makes another the default and removes one', async () => {
    const calls: string[] = [];
    let cards: PaymentMethods = { paymentMethods: [visa, mastercard] };
    server.use(
      http.get('*/api/billing/payment-methods', () => HttpResponse.json(cards)),
      http.put('*/api/billing/payment-methods/:id/default', ({ params }) => {
        calls.push(`default ${params.id}`);
        cards = { paymentMethods: cards.paymentMethods.map((c) => ({ ...c, isDefault: c.id === params.id })) };
        return HttpResponse.json(cards);
      }),
      http.delete('*/api/billing/payment-methods/:id', ({ params }) => {
        calls.push(`remove ${params.id}`);
        const left = cards.paymentMethods.filter((c) => c.id !== params.id);
        cards = { paymentMethods: left.map((c, i) => ({ ...c, isDefault: c.isDefault || i === 0 })) };
        return HttpResponse.json(cards);
      }),
    );
    renderWithProviders(<PaymentMethodsSection />, { wrapper: signedIn });
    const rows = await screen.findAllByTestId('payment-method');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('Visa ending in 4242Expires 12/2034Default'),
      expect.stringContaining('Mastercard ending in 4444Expires 01/2035'),
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Make Mastercard ending in 4444 the default card' }));
    await screen.findByRole('button', { name: 'Make Visa ending in 4242 the default card' });
    await userEvent.click(screen.getByRole('button', { name: 'Remove Visa ending in 4242' }));
    await waitFor(() => expect(screen.getAllByTestId('payment-method')).toHaveLength(1));
    expect(calls).toEqual(['default pm_2', 'remove pm_1']);
  });

  it('adds a card with the sandbox form on the client secret of GET /getCustomerSecret', async () => {
    let cards: PaymentMethods = { paymentMethods: [] };
    const saved: unknown[] = [];
    server.use(
      http.get('*/api/billing/payment-methods', () => HttpResponse.json(cards)),
      http.get('*/api/getCustomerSecret', () =>
        HttpResponse.json({ provider: 'sandbox', clientSecret: 'seti_1_secret_2' }),
      ),
      http.post('*/api/sandbox/setup-intents/confirm', async ({ request }) => {
        saved.push(await request.json());
        cards = { paymentMethods: [visa] };
        return HttpResponse.json(visa, { status: 201 });
      }),
    );
    renderWithProviders(<PaymentMethodsSection />, { wrapper: signedIn });
    expect(await screen.findByText('No saved cards yet.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add card' }));
    const form = await screen.findByTestId('sandbox-card-form');
    await userEvent.type(within(form).getByLabelText(/Card number/), '4242424242424242');
    await userEvent.type(within(form).getByLabelText(/Expiry date/), '12/34');
    await userEvent.type(within(form).getByLabelText(/CVC/), '123');
    await userEvent.click(within(form).getByRole('button', { name: 'Save card' }));
    expect(await screen.findByText('Visa ending in 4242')).toBeInTheDocument();
    expect(saved).toEqual([{ card: '4242424242424242', expiry: '12/34', cvc: '123', clientSecret: 'seti_1_secret_2' }]);
    expect(screen.queryByTestId('sandbox-card-form')).toBeNull();
  });
});

describe('failed renewal banner', () => {
  const renewal = (status: Subscription['status']) => subscription({ id: crypto.randomUUID(), status });

  it('offers "Update card", leading to the saved cards, while a renewal has failed', async () => {
    server.use(
      http.get('*/api/subscriptions', () =>
        HttpResponse.json({ subscriptions: [renewal('active'), renewal('past_due')], tokenAmount: 0 }),
      ),
    );
    renderWithProviders(<RenewalFailedBanner />, { wrapper: signedIn });
    const banner = await screen.findByTestId('renewal-failed');
    expect(banner).toHaveTextContent('The renewal of RTK Monthly failed.');
    expect(within(banner).getByRole('link', { name: 'Update card' })).toHaveAttribute(
      'href',
      '/settings/billing#cards',
    );
  });

  it('shows nothing while every renewal went through', async () => {
    server.use(
      http.get('*/api/subscriptions', () => HttpResponse.json({ subscriptions: [renewal('active')], tokenAmount: 0 })),
    );
    const { queryClient } = renderWithProviders(<RenewalFailedBanner />, { wrapper: signedIn });
    await waitFor(() => expect(queryClient.getQueryState(billingKeys.subscriptions)?.status).toBe('success'));
    expect(screen.queryByTestId('renewal-failed')).toBeNull();
  });
});
