import type { CheckoutSession, PricingProduct, PricingTable } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BuyButton, openCheckoutUrl } from '../../../src/features/billing/BuyButton';
import { reportPurchase } from '../../../src/features/billing/CheckoutPage';
import { PriceTag, PricingCard } from '../../../src/features/billing/PricingCard';
import { PricingGrid } from '../../../src/features/billing/PricingGrid';
import { sortByAmount } from '../../../src/features/billing/pricing';
import { pricingProduct } from '../support/factories';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

/** Each card its own price id, as the server's products have. */
const product = (over: Partial<PricingProduct> = {}): PricingProduct =>
  pricingProduct({ priceId: `price_${Math.random().toString(36).slice(2)}`, ...over });

beforeEach(() => {
  server.use(http.get('*/api/billing/tax-info', () => HttpResponse.json({ pricesIncludeTax: false })));
});

describe('money on pricing cards', () => {
  it('says whether the price includes VAT, as the tax settings say', async () => {
    renderWithProviders(<PricingCard product={product()} />);
    expect(await screen.findByTestId('price-tax')).toHaveTextContent('excl. VAT');
  });

  it.each([
    [1999, 'euro', '€19.99'],
    [1999, 'EURO', '€19.99'],
    [500, 'usd', '$5.00'],
    [500, 'USD', '$5.00'],
    [5, 'pound', '£0.05'],
    [129900, 'POUND', '£1,299.00'],
  ])('shows %i minor units of %s as %s', (amount, currency, text) => {
    renderWithProviders(<PriceTag amount={amount} currency={currency} />);
    expect(screen.getByTestId('price')).toHaveTextContent(text);
  });

  it('shows price, interval, tokens and attributes on a card', () => {
    renderWithProviders(
      <PricingCard
        product={product({ attributes: ['RINEX data', 'Every station'], interval: 'YEARLY', amount: 49000 })}
      />,
    );
    const card = screen.getByTestId('pricing-card');
    expect(card).toHaveTextContent('€490.00');
    expect(card).toHaveTextContent('/ year');
    expect(
      within(card)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['RINEX data', 'Every station']);
    renderWithProviders(<PricingCard product={product({ type: 'Token', interval: undefined, creditsAmount: 500 })} />);
    expect(screen.getByText('500 tokens')).toBeInTheDocument();
  });
});

describe('badges', () => {
  it('shows Recommended only for the best choice and Test mode only in test mode', () => {
    renderWithProviders(<PricingCard product={product({ bestChoice: true, testMode: true })} />);
    expect(screen.getByTestId('badge-recommended')).toHaveTextContent('Recommended');
    expect(screen.getByTestId('badge-test-mode')).toHaveTextContent('Test mode');
  });

  it('shows no badge on a plain product', () => {
    renderWithProviders(<PricingCard product={product()} />);
    expect(screen.queryByTestId('badge-recommended')).toBeNull();
    expect(screen.queryByTestId('badge-test-mode')).toBeNull();
  });
});

describe('sorting and grid', () => {
  it('sorts by amount ascending', () => {
    const sorted = sortByAmount([product({ name: 'c', amount: 300 }), product({ name: 'a', amount: 100 })]);
    expect(sorted.map((p) => p.name)).toEqual(['a', 'c']);
  });

  it('renders cards cheapest first', () => {
    const table: PricingTable = {
      name: 'RTK',
      data: [
        product({ name: 'Yearly', amount: 49000 }),
        product({ name: 'Weekly', amount: 1499 }),
        product({ name: 'Monthly', amount: 4900 }),
      ],
    };
    renderWithProviders(<PricingGrid table={table} />);
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual([
      'RTK',
      'Weekly',
      'Monthly',
      'Yearly',
    ]);
  });

  it.each([
    [1, '1', 'grid-cols-1'],
    [2, '2', 'md:grid-cols-2'],
    [3, '3', 'lg:grid-cols-3'],
    [4, '4', 'lg:grid-cols-4'],
    [6, '4', 'lg:grid-cols-4'],
  ])('%i products use %s columns on large screens', (count, columns, cls) => {
    const data = Array.from({ length: count }, (_, i) => product({ name: `P${i}`, amount: i * 100 }));
    renderWithProviders(<PricingGrid table={{ name: 'T', data }} />);
    const grid = screen.getByTestId('pricing-grid');
    expect(grid).toHaveAttribute('data-columns', columns);
    expect(grid.className).toContain(cls);
  });
});

describe('Buy button', () => {
  let open: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    open = vi.spyOn(window, 'open').mockReturnValue({} as Window);
  });
  afterEach(() => vi.restoreAllMocks());

  it('shows a loading label while the session is created, then opens the portal’s checkout page in a new tab', async () => {
    const url = 'http://portal.test/checkout?checkoutSessionId=x';
    const posted: string[] = [];
    let answer!: () => void;
    server.use(
      http.post('*/api/checkout/product', async ({ request }) => {
        posted.push(new URL(request.url).search);
        await new Promise<void>((r) => {
          answer = r;
        });
        return HttpResponse.json({ url, checkoutSessionId: 'x' });
      }),
    );
    const onOpened = vi.fn();
    const p = product({ type: 'Token', priceId: 'price_tokens' });
    renderWithProviders(<BuyButton product={p} onOpened={onOpened} />, { route: '/credits' });
    const button = screen.getByRole('button', { name: 'Buy' });
    await userEvent.click(button);
    expect(button).toHaveTextContent('Opening checkout...');
    expect(button).toBeDisabled();
    await vi.waitFor(() => expect(posted).toEqual(['?priceId=price_tokens']));
    answer();
    await vi.waitFor(() => expect(open).toHaveBeenCalledWith(url, '_blank'));
    expect(onOpened).toHaveBeenCalled();
    expect(button).toHaveTextContent('Buy');
    expect(button).toBeEnabled();
  });

  it('opens the checkout page in the current window when the new tab is blocked', () => {
    const blocked = { open: vi.fn().mockReturnValue(null), location: { assign: vi.fn() } };
    expect(openCheckoutUrl('http://portal.test/checkout?checkoutSessionId=y', blocked as unknown as Window)).toBe(
      'window',
    );
    expect(blocked.location.assign).toHaveBeenCalledWith('http://portal.test/checkout?checkoutSessionId=y');
    const allowed = { open: vi.fn().mockReturnValue({}), location: { assign: vi.fn() } };
    expect(openCheckoutUrl('http://portal.test/checkout?checkoutSessionId=z', allowed as unknown as Window)).toBe(
      'tab',
    );
    expect(allowed.open).toHaveBeenCalledWith('http://portal.test/checkout?checkoutSessionId=z', '_blank');
    expect(allowed.location.assign).not.toHaveBeenCalled();
  });

  it('shows an error modal when the checkout cannot be created', async () => {
    server.use(http.post('*/api/checkout/subscription', () => HttpResponse.error()));
    renderWithProviders(<BuyButton product={product()} />);
    await userEvent.click(screen.getByRole('button', { name: 'Buy' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Checkout Could Not Be Opened');
    expect(open).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy' })).toBeEnabled());
  });

  it('is disabled for a preview product', () => {
    renderWithProviders(<PricingCard product={product({ previewMode: true })} />);
    expect(screen.getByRole('button', { name: 'Buy' })).toBeDisabled();
  });
});

describe('purchase analytics', () => {
  it('pushes tokenPurchase once per checkout session', () => {
    window.dataLayer = [];
    window.sessionStorage.clear();
    const session: CheckoutSession = {
      id: 'c1',
      transactionId: 'cs_sbx_1',
      status: 'complete',
      type: 'Token',
      productName: '100 Tokens',
      priceId: 'p',
      amount: 1000,
      currency: 'EUR',
      value: 10,
      creditsAmount: 100,
      createdAt: new Date().toISOString(),
    };
    expect(reportPurchase(session)).toBe(true);
    expect(reportPurchase(session)).toBe(false);
    expect(window.dataLayer).toEqual([
      { event: 'tokenPurchase', value: 10, currency: 'EUR', transactionId: 'cs_sbx_1' },
    ]);
    reportPurchase({ ...session, id: 'c2', type: 'Subscription', transactionId: 'cs_sbx_2' });
    expect(window.dataLayer.at(-1)).toEqual({
      event: 'subscriptionPurchase',
      value: 10,
      currency: 'EUR',
      transactionId: 'cs_sbx_2',
    });
  });
});
