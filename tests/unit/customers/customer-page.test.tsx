import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuthContext } from '../../../src/features/auth/auth-context';
import { CustomerPage } from '../../../src/features/customers/CustomerPage';
import { account, user } from '../support/factories';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

const ID = '44444444-4444-4444-8444-444444444444';
const patches: unknown[] = [];
const created: unknown[] = [];
const grants: unknown[] = [];

const customer = {
  user: {
    id: ID,
    email: 'carla@example.test',
    displayName: 'Carla',
    isAdmin: false,
    disabled: false,
    createdAt: '2026-11-01T10:00:00Z',
    termsAcceptedAt: '2026-11-01T10:00:00Z',
  },
  tokenAmount: 30,
  ledger: [],
  subscriptions: [],
  organizations: [],
  ntripAccounts: [account()],
  invoices: [],
  billingDetails: {
    companyName: 'Landmeters Vlaanderen BV',
    addressLine1: 'Meir 10',
    addressLine2: null,
    postalCode: '2000',
    city: 'Antwerpen',
    country: 'BE',
    vatNumber: 'BE0123456789',
    vatVerified: false,
    invoiceEmail: null,
    updatedAt: '2026-11-02T10:00:00Z',
  },
};
const verifications: unknown[] = [];

beforeEach(() =>
  server.use(
    http.get('*/api/meta/pages/:page', () => new HttpResponse(null, { status: 404 })),
    http.get('*/api/admin/users/:id', () => HttpResponse.json(customer)),
    http.patch('*/api/admin/users/:id', async ({ request }) => {
      patches.push(await request.json());
      return HttpResponse.json({ ...customer.user, isAdmin: true });
    }),
    http.put('*/api/admin/billing-details/vat-verification', async ({ request }) => {
      verifications.push(await request.json());
      return HttpResponse.json({ details: { ...customer.billingDetails, vatVerified: true } });
    }),
    http.put('*/api/admin/tokens', async ({ request }) => {
      grants.push(await request.json());
      return HttpResponse.json({ userId: ID, tokenAmount: 0 });
    }),
    http.post('*/api/admin/ntrip-accounts', async ({ request }) => {
      created.push(await request.json());
      return HttpResponse.json(
        {
          account: account({ id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', label: 'Drone' }),
          password: 'once-only-secret',
        },
        { status: 201 },
      );
    }),
  ),
);
afterEach(() => {
  verifications.length = 0;
  patches.length = 0;
  created.length = 0;
  grants.length = 0;
});

function renderPage() {
  renderWithProviders(
    <Routes>
      <Route path="/admin/users/:userId" element={<CustomerPage />} />
    </Routes>,
    {
      route: `/admin/users/${ID}`,
      wrapper: (children) => (
        <AuthContext.Provider value={{ ...user, email: 'admin@example.test', isAdmin: true }}>
          {children}
        </AuthContext.Provider>
      ),
    },
  );
  return userEvent.setup();
}

describe('the customer page', () => {
  it('makes a customer admin only after the confirmation', async () => {
    const u = renderPage();
    await u.click(await screen.findByRole('button', { name: 'Make admin' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Make carla@example.test an admin?')).toBeInTheDocument();
    expect(patches).toEqual([]);
    await u.click(within(dialog).getByRole('button', { name: 'Make admin' }));
    await waitFor(() => expect(patches).toEqual([{ isAdmin: true }]));
  });

  it('refuses to take back more tokens than the balance, and sends a take-back with its reason after confirming', async () => {
    const u = renderPage();
    await u.click(await screen.findByRole('button', { name: 'Grant or take back tokens' }));
    const dialog = await screen.findByRole('dialog');
    await u.type(within(dialog).getByLabelText('Tokens:'), '-31');
    await u.type(within(dialog).getByLabelText('Reason:'), 'Wrong pack');
    expect(within(dialog).getByText('A balance cannot go below zero; it is 30 now.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Continue' })).toBeDisabled();
    await u.clear(within(dialog).getByLabelText('Tokens:'));
    await u.type(within(dialog).getByLabelText('Tokens:'), '-30');
    await u.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(within(dialog).getByText('Take back 30 tokens? The balance goes from 30 to 0.')).toBeInTheDocument();
    expect(grants).toEqual([]);
    await u.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(grants).toEqual([{ userId: ID, tokenAmount: -30, reason: 'Wrong pack' }]));
  });

  it('creates an NTRIP account for the customer and shows its password once', async () => {
    const u = renderPage();
    await screen.findByText('Tractor 7');
    await u.click(screen.getByRole('button', { name: 'Create NTRIP account' }));
    const dialog = await screen.findByRole('dialog');
    await u.type(within(dialog).getByLabelText('Label:'), 'Drone');
    await u.click(within(dialog).getByRole('button', { name: 'Create account' }));
    expect(await within(dialog).findByTestId('ntrip-password')).toHaveTextContent('once-only-secret');
    expect(created).toEqual([{ ownerUserId: ID, label: 'Drone' }]);
  });
  it('shows the VAT number as unverified and lets the admin mark the number they checked as verified', async () => {
    const u = renderPage();
    const details = await screen.findByTestId('customer-billing-details');
    expect(details).toHaveTextContent('VAT number BE0123456789: not verified (charged VAT like a consumer)');
    await u.click(screen.getByRole('button', { name: 'Mark VAT number verified' }));
    await waitFor(() => expect(verifications).toEqual([{ userId: ID, vatNumber: 'BE0123456789', verified: true }]));
  });
});
