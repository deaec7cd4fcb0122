import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AdminInvoicesPage } from '../../../src/features/billing/AdminInvoicesPage';
import { AdminPaymentsPage } from '../../../src/features/billing/AdminPaymentsPage';
import { AdminTaxSettingsPage } from '../../../src/features/billing/AdminTaxSettingsPage';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

const PAYMENT = '66666666-6666-4666-8666-666666666666';
const INVOICE = '77777777-7777-4777-8777-777777777777';
const refunds: unknown[] = [];
const taxSaves: unknown[] = [];
const requested: URL[] = [];

const payment = {
  id: PAYMENT,
  userId: 'u1',
  userEmail: 'dora@example.test',
  provider: 'sandbox',
  providerPaymentId: 'pi_1',
  description: 'RTK Netherlands, monthly',
  amount: 4_900,
  refundedAmount: 0,
  currency: 'EUR',
  status: 'paid',
  invoiceNumber: 'INV-2026-000042',
  createdAt: '2026-11-20T10:00:00Z',
  creditsAmount: null,
  subscriptionId: 's1',
};
const tax = {
  seller: {
    legalName: 'Dutch RTK B.V.',
    addressLine1: 'Kanaalweg 1',
    addressLine2: null,
    postalCode: '2628 EB',
    city: 'Delft',
    country: 'NL',
    vatNumber: 'NL123456789B01',
    email: 'billing@example.test',
  },
  invoicePrefix: 'INV',
  pricesIncludeTax: true,
  reverseCharge: true,
  stripeAutomaticTax: false,
  rates: [{ country: 'NL', rateBp: 2_100 }],
};
const invoice = {
  id: INVOICE,
  kind: 'invoice',
  number: 'INV-2026-000042',
  paymentId: PAYMENT,
  issuedAt: '2026-11-20T10:00:00Z',
  currency: 'EUR',
  netAmount: 4_050,
  taxAmount: 850,
  totalAmount: 4_900,
  reverseCharge: false,
  buyerName: 'Dora Dijk',
  buyerEmail: 'dora@example.test',
  buyerCountry: 'NL',
};

let taxSetup = { ready: true, sellerFieldsMissing: [] as string[], ratesMissing: [] as string[] };

beforeEach(() =>
  server.use(
    // The page's title and description: none stored, so the defaults.
    http.get('*/api/meta/pages/:page', () =>
      HttpResponse.json({ code: 'not_found', message: 'No meta.' }, { status: 404 }),
    ),
    http.get('*/api/admin/payments', ({ request }) => {
      requested.push(new URL(request.url));
      return HttpResponse.json({
        payments: [payment],
        health: {
          provider: 'stripe',
          keysConfigured: true,
          webhookConfigured: false,
          lastEventAt: null,
          lastEventType: null,
          failedEvents: 2,
        },
        taxSetup,
      });
    }),
    http.post('*/api/admin/payments/:id/refund', async ({ request, params }) => {
      refunds.push({ id: params.id, body: await request.json() });
      return HttpResponse.json({ id: 'r1' }, { status: 201 });
    }),
    http.get('*/api/admin/settings/tax', () => HttpResponse.json(tax)),
    http.put('*/api/admin/settings/tax', async ({ request }) => {
      const body = await request.json();
      taxSaves.push(body);
      return HttpResponse.json(body);
    }),
    http.get('*/api/admin/invoices', ({ request }) => {
      const url = new URL(request.url);
      requested.push(url);
      const kind = url.searchParams.get('kind');
      return HttpResponse.json({ invoices: kind === 'credit_note' ? [] : [invoice] });
    }),
    http.get('*/api/billing/invoices/:id/pdf', ({ request }) => {
      requested.push(new URL(request.url));
      return new HttpResponse('%PDF-1.7', {
        headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="INV.pdf"' },
      });
    }),
  ),
);
beforeAll(() => {
  // jsdom has no object URLs; the download helper hands the file to the browser through one.
  URL.createObjectURL = vi.fn(() => 'blob:invoice');
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
});
afterEach(() => {
  refunds.length = 0;
  taxSaves.length = 0;
  requested.length = 0;
});
afterAll(() => {
  vi.restoreAllMocks();
});

describe('/admin/settings/payments', () => {
  it('warns while the seller or a rate is missing, naming them, and links to tax management', async () => {
    taxSetup = { ready: false, sellerFieldsMissing: ['legalName', 'vatNumber'], ratesMissing: ['DE', 'FR'] };
    try {
      renderWithProviders(<AdminPaymentsPage />);
      const banner = await screen.findByTestId('tax-setup-banner');
      expect(banner).toHaveTextContent('Seller details missing: Legal name, VAT number.');
      expect(banner).toHaveTextContent('VAT rates missing for: DE, FR.');
      expect(within(banner).getByRole('link', { name: 'Open tax management' })).toHaveAttribute(
        'href',
        '/admin/settings/tax-management',
      );
    } finally {
      taxSetup = { ready: true, sellerFieldsMissing: [], ratesMissing: [] };
    }
  });

  it("shows the provider's health and the payments, and refunds one after the admin confirms the amount", async () => {
    renderWithProviders(<AdminPaymentsPage />);
    const health = await screen.findByTestId('provider-health');
    expect(screen.queryByTestId('tax-setup-banner')).toBeNull();
    expect(health).toHaveTextContent('Stripe');
    expect(health).toHaveTextContent('Set / Missing');
    expect(health).toHaveTextContent('None yet');
    expect(screen.getByText('RTK Netherlands, monthly')).toBeInTheDocument();
    expect(screen.getByText('dora@example.test')).toBeInTheDocument();

    const u = userEvent.setup();
    await u.click(screen.getByRole('button', { name: 'Refund' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Up to €49.00 can still be refunded.');
    const amount = within(dialog).getByLabelText('Amount:');
    await u.clear(amount);
    await u.type(amount, '60');
    await u.click(within(dialog).getByRole('button', { name: 'Refund €60.00' }));
    expect(
      within(dialog).getByText('Enter an amount above zero and at most what can still be refunded.'),
    ).toBeVisible();
    expect(refunds).toEqual([]);
    await u.clear(amount);
    await u.type(amount, '19,50');
    await u.type(within(dialog).getByLabelText('Reason (internal):'), 'Outage');
    await u.click(within(dialog).getByLabelText('Also end the subscription it paid for, now'));
    await u.click(within(dialog).getByRole('button', { name: 'Refund €19.50' }));
    await waitFor(() =>
      expect(refunds).toEqual([{ id: PAYMENT, body: { amount: 1_950, reason: 'Outage', cancelSubscription: true } }]),
    );
  });

  it('filters by status', async () => {
    renderWithProviders(<AdminPaymentsPage />);
    await screen.findByTestId('provider-health');
    await userEvent.setup().selectOptions(screen.getByLabelText('Status:'), 'Refunded');
    await waitFor(() => expect(requested.at(-1)?.searchParams.get('status')).toBe('refunded'));
  });
});

describe('/admin/settings/tax-management', () => {
  it('shows the seller and rates in force, and saves a changed name with an added country rate', async () => {
    renderWithProviders(<AdminTaxSettingsPage />);
    const name = await screen.findByLabelText('Legal name:');
    expect(name).toHaveValue('Dutch RTK B.V.');
    expect(screen.getByLabelText('Rate (%):')).toHaveValue('21');
    expect(screen.getByRole('switch', { name: 'Prices include VAT' })).toHaveAttribute('aria-checked', 'true');

    const u = userEvent.setup();
    await u.clear(name);
    await u.type(name, 'Dutch RTK Holding B.V.');
    await u.click(screen.getByRole('button', { name: 'Add a country' }));
    const rates = screen.getAllByLabelText('Rate (%):');
    await u.clear(rates[1] as HTMLElement);
    await u.type(rates[1] as HTMLElement, '5,5');
    await u.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Tax settings saved.')).toBeInTheDocument();
    expect(taxSaves).toHaveLength(1);
    expect(taxSaves[0]).toMatchObject({
      seller: { legalName: 'Dutch RTK Holding B.V.', vatNumber: 'NL123456789B01' },
      rates: [{ country: 'NL', rateBp: 2_100 }, { rateBp: 550 }],
    });
  });

  it('refuses a rate above 100 % before saving', async () => {
    renderWithProviders(<AdminTaxSettingsPage />);
    const u = userEvent.setup();
    const rate = await screen.findByLabelText('Rate (%):');
    await u.clear(rate);
    await u.type(rate, '121');
    await u.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/The rate for NL is not a percentage/)).toBeInTheDocument();
    expect(taxSaves).toEqual([]);
  });

  it('refuses a country listed twice before saving, and marks the second one', async () => {
    renderWithProviders(<AdminTaxSettingsPage />);
    const u = userEvent.setup();
    await screen.findByLabelText('Rate (%):');
    await u.click(screen.getByRole('button', { name: 'Add a country' }));
    // The seller's country comes first, then one per rate.
    const countries = screen.getAllByLabelText('Country:');
    await u.selectOptions(countries[2] as HTMLElement, 'NL');
    await u.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getAllByLabelText('Country:')[2]).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getAllByLabelText('Country:')[1]).not.toHaveAttribute('aria-invalid');
    expect(taxSaves).toEqual([]);
  });
});

describe('/admin/settings/invoices', () => {
  it('lists invoices with buyer and VAT, downloads a PDF and filters credit notes', async () => {
    renderWithProviders(<AdminInvoicesPage />);
    expect(await screen.findByText('INV-2026-000042')).toBeInTheDocument();
    expect(screen.getByText('Dora Dijk · NL')).toBeInTheDocument();
    expect(screen.getByText('€8.50')).toBeInTheDocument();

    const u = userEvent.setup();
    await u.click(screen.getByRole('button', { name: 'PDF' }));
    await waitFor(() => expect(requested.at(-1)?.pathname).toBe(`/api/billing/invoices/${INVOICE}/pdf`));

    await u.selectOptions(screen.getByLabelText('Type:'), 'Credit note');
    expect(await screen.findByText('No invoices match.')).toBeInTheDocument();
    expect(requested.at(-1)?.searchParams.get('kind')).toBe('credit_note');
  });
});
