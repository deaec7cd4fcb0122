import { type CheckoutSession, checkoutSessionSchema, ntripAccountListSchema } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ModalProvider } from '../../../src/components/modal';
import { AccountsPage } from '../../../src/features/accounts/AccountsPage';
import { suggestNetwork } from '../../../src/features/accounts/ActivateTokensDialog';
import { setActiveOrganization } from '../../../src/features/auth/active-organization';
import { AuthContext } from '../../../src/features/auth/auth-context';
import { CheckoutPage } from '../../../src/features/billing/CheckoutPage';
import { account, NETWORK_ID, network, OTHER_NETWORK_ID, tokenTables, user } from '../support/factories';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** Two activatable networks: the Dutch one (the cheaper, offered when nothing says where the user is) and a Belgian one. */
const networks = [
  network({ coverage: { bbox: [3.3, 50.7, 7.2, 53.6], center: [5.3, 52.1] } }),
  network({
    id: OTHER_NETWORK_ID,
    slug: 'be-rtk',
    name: 'Belgium RTK',
    tokenPricePerDay: 12,
    coverage: { bbox: [2.5, 49.5, 6.4, 51.5], center: [4.4, 50.6] },
  }),
];

const noSessions = { items: [], total: 0, limit: 20, offset: 0 };

function setup(accounts: unknown, route = '/accounts', sessions: object = noSessions) {
  server.use(
    http.get('*/api/ntrip-accounts/:id/sessions', () => HttpResponse.json(sessions)),
    http.get('*/api/subscriptions', () => HttpResponse.json({ subscriptions: [], tokenAmount: 100 })),
    http.get('*/api/networks', () => HttpResponse.json({ items: networks })),
    http.get('*/api/meta/pages/:page', () =>
      HttpResponse.json({ code: 'not_found', message: 'none' }, { status: 404 }),
    ),
    http.get('*/api/ntrip-accounts', () => HttpResponse.json(ntripAccountListSchema.parse(accounts))),
    http.get('*/api/ntrip-accounts/:id/mountpoints', () => HttpResponse.json({ items: [] })),
    http.get('*/api/tokenProducts', () => HttpResponse.json(tokenTables)),
  );
  renderWithProviders(<AccountsPage />, {
    route,
    wrapper: (children) => (
      <AuthContext.Provider value={user}>
        <ModalProvider>{children}</ModalProvider>
      </AuthContext.Provider>
    ),
  });
  return userEvent.setup();
}

describe('next steps', () => {
  it('an account without access says so on its card, and its Activate button opens the activation for it', async () => {
    const other = account({ id: 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee', label: 'Boat', username: 'rtk-boat2345' });
    const u = setup({ items: [other, account({ status: 'no_access', grants: [] })] });
    const section = await screen.findByRole('region', { name: 'Your accounts' });
    const noAccess = within(section).getByTestId('no-access');
    expect(noAccess).toHaveTextContent('No access to any network now');
    await u.click(within(noAccess).getByRole('button', { name: 'Activate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Activate tokens' });
    expect(within(dialog).getByLabelText('NTRIP account:')).toHaveValue(account().id);
  });

  it("the card of an account without access offers Activate, the card's position choosing the network", async () => {
    const u = setup({ items: [account({ status: 'no_access', grants: [] })] });
    await u.click(await screen.findByRole('button', { name: 'Details' }));
    const card = await screen.findByTestId('card-no-access');
    expect(card).toHaveTextContent('may not use any network now');
    // Brussels: inside both networks' boxes; the Belgian one is the one that covers it closely.
    await u.type(screen.getByLabelText('Latitude (°):'), '50.85');
    await u.type(screen.getByLabelText('Longitude (°):'), '4.35');
    await u.click(within(card).getByRole('button', { name: 'Activate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Activate tokens' });
    expect(within(dialog).getByLabelText('NTRIP account:')).toHaveValue(account().id);
    await waitFor(() => expect(within(dialog).getByLabelText('Network:')).toHaveValue(OTHER_NETWORK_ID));
    expect(within(dialog).getByTestId('activation-suggested')).toHaveTextContent('Belgium RTK covers your position.');
  });

  it('/accounts?activate=1&network=… offers the network of the chosen station first and shows when access ends', async () => {
    // The account's own activation on Belgium RTK ends on 1 March 2099: new days follow it.
    const current = account({
      grants: [
        {
          ...(account().grants[0] as ReturnType<typeof account>['grants'][number]),
          networkId: OTHER_NETWORK_ID,
          networkSlug: 'be-rtk',
          networkName: 'Belgium RTK',
          validUntil: '2099-03-01T12:00:00.000Z',
        },
      ],
    });
    setup({ items: [current] }, `/accounts?activate=1&network=${OTHER_NETWORK_ID}`);
    const dialog = await screen.findByRole('dialog', { name: 'Activate tokens' });
    const select = within(dialog).getByLabelText('Network:');
    await waitFor(() => expect(select).toHaveValue(OTHER_NETWORK_ID));
    expect(within(select).getAllByRole('option')[0]).toHaveTextContent('Belgium RTK');
    expect(within(dialog).getByTestId('activation-suggested')).toHaveTextContent(
      'Belgium RTK: the network of the station you chose.',
    );
    expect(within(dialog).getByText(/the new days start on/)).toBeInTheDocument();
    // One day (the default) after the current end.
    expect(within(dialog).getByTestId('activation-until')).toHaveTextContent(/Mar 2, 2099/);
  });

  it("suggests the network covering the browser's location, asked only on request", async () => {
    const getCurrentPosition = vi.fn((ok: PositionCallback) =>
      ok({ coords: { latitude: 50.85, longitude: 4.35 } } as GeolocationPosition),
    );
    vi.stubGlobal('navigator', Object.assign(Object.create(navigator), { geolocation: { getCurrentPosition } }));
    const u = setup({ items: [account({ grants: [] })] }, '/accounts?activate=1');
    const dialog = await screen.findByRole('dialog', { name: 'Activate tokens' });
    await waitFor(() => expect(within(dialog).getByLabelText('Network:')).toHaveValue(NETWORK_ID));
    expect(getCurrentPosition).not.toHaveBeenCalled();
    await u.click(within(dialog).getByRole('button', { name: 'Suggest the network where I am' }));
    // Brussels lies in both boxes; the smaller (Belgian) network is the one meant for it.
    expect(within(dialog).getByLabelText('Network:')).toHaveValue(OTHER_NETWORK_ID);
    expect(within(dialog).getByTestId('activation-suggested')).toHaveTextContent('Belgium RTK covers your position.');
  });

  it('without a position offers the cheapest network, not the first of the list', async () => {
    server.use(http.get('*/api/networks', () => HttpResponse.json({ items: [...networks].reverse() })));
    setup({ items: [account({ grants: [] })] }, '/accounts?activate=1');
    const dialog = await screen.findByRole('dialog', { name: 'Activate tokens' });
    await waitFor(() => expect(within(dialog).getByLabelText('Network:')).toHaveValue(NETWORK_ID));
    expect(within(dialog).queryByTestId('activation-suggested')).not.toBeInTheDocument();
  });

  it('offers the network covering the last position a rover of the account sent (GGA)', async () => {
    const session = {
      id: '1',
      mountpoint: 'BE-RTK_NEAR',
      remoteAddress: '127.0.0.1',
      startedAt: '2026-11-20T10:00:00.000Z',
      endedAt: '2026-11-20T11:00:00.000Z',
      durationSeconds: 3600,
      bytesSent: 1000,
      endReason: 'client_closed',
      lastPosition: { latitude: 50.85, longitude: 4.35 },
    };
    setup({ items: [account({ grants: [] })] }, '/accounts?activate=1', { ...noSessions, items: [session], total: 1 });
    const dialog = await screen.findByRole('dialog', { name: 'Activate tokens' });
    await waitFor(() => expect(within(dialog).getByLabelText('Network:')).toHaveValue(OTHER_NETWORK_ID));
    expect(within(dialog).getByTestId('activation-suggested')).toHaveTextContent(
      'Belgium RTK covers the position your rover last sent.',
    );
  });

  it("with an organisation chosen, shows the organisation's balance and, short of tokens, leads to its page", async () => {
    const orgId = '33333333-3333-4333-8333-333333333333';
    server.use(
      http.get(`*/api/org/${orgId}/tokens`, () => HttpResponse.json({ tokenAmount: 5 })),
      http.get('*/api/ntrip-accounts/:id/sessions', () => HttpResponse.json(noSessions)),
      http.get('*/api/tokenProducts', () => HttpResponse.json(tokenTables)),
      http.get(`*/api/org/${orgId}/ntrip-accounts`, () =>
        HttpResponse.json(ntripAccountListSchema.parse({ items: [account({ grants: [] })] })),
      ),
      http.get('*/api/networks', () => HttpResponse.json({ items: networks })),
      http.get('*/api/meta/pages/:page', () =>
        HttpResponse.json({ code: 'not_found', message: 'none' }, { status: 404 }),
      ),
    );
    setActiveOrganization(orgId);
    const admin = { ...user, teams: [{ id: orgId, name: 'Polder Crew', role: 'admin' as const, url: '' }] };
    const view = renderWithProviders(<AccountsPage />, {
      route: '/accounts?activate=1',
      wrapper: (children) => (
        <AuthContext.Provider value={admin}>
          <ModalProvider>{children}</ModalProvider>
        </AuthContext.Provider>
      ),
    });
    try {
      const dialog = await screen.findByRole('dialog', { name: 'Activate tokens' });
      expect(await within(dialog).findByText('Balance of Polder Crew')).toBeInTheDocument();
      const short = await within(dialog).findByTestId('activation-short');
      expect(short).toHaveTextContent(
        'This activation needs 10 tokens and Polder Crew has 5. An owner or admin moves tokens to it from their own balance on its page.',
      );
      expect(within(short).getByRole('link', { name: 'Move tokens' })).toHaveAttribute(
        'href',
        `/settings/organization?org=${orgId}`,
      );
    } finally {
      // Unmounted first: back on Personal, the page would ask for the user's own accounts and balance.
      view.unmount();
      setActiveOrganization(null);
    }
  });

  it('picks the covering network by position, across the antimeridian too', () => {
    const fiji = network({ id: OTHER_NETWORK_ID, coverage: { bbox: [177, -19, -178, -16], center: [179.5, -17.5] } });
    expect(suggestNetwork(networks, { position: { latitude: 52.1, longitude: 5.1 } })?.network.id).toBe(NETWORK_ID);
    expect(
      suggestNetwork([networks[0] as never, fiji], { position: { latitude: -17, longitude: -179.5 } }),
    ).toMatchObject({
      network: { id: OTHER_NETWORK_ID },
      why: 'position',
    });
    expect(suggestNetwork(networks, { position: { latitude: 40, longitude: -3 } })).toBeUndefined();
  });
});

describe('checkout success', () => {
  const session = (type: CheckoutSession['type']): CheckoutSession =>
    checkoutSessionSchema.parse({
      id: '5d8b9a38-2f5c-4bd4-9d53-0d9d6f5c1a11',
      transactionId: 'cs_sbx_42',
      status: 'complete',
      type,
      productName: type === 'Token' ? '100 Tokens' : 'RTK Monthly',
      priceId: 'price_1',
      amount: 1000,
      currency: 'EUR',
      value: 10,
      ...(type === 'Token' ? { creditsAmount: 100 } : { subscriptionId: 'sub-1' }),
      createdAt: '2026-11-23T12:00:00Z',
    });

  function renderCheckout(type: CheckoutSession['type']) {
    server.use(
      http.get('*/api/checkout', () => HttpResponse.json(session(type))),
      http.get('*/api/subscriptions', () => HttpResponse.json({ subscriptions: [], tokenAmount: 100 })),
      http.get('*/api/meta/pages/:page', () =>
        HttpResponse.json({ code: 'not_found', message: 'none' }, { status: 404 }),
      ),
      http.get('*/api/user', () => HttpResponse.json({ teams: [], isAdmin: false })),
    );
    renderWithProviders(<CheckoutPage />, {
      route: '/checkout?checkoutSessionId=5d8b9a38-2f5c-4bd4-9d53-0d9d6f5c1a11',
      wrapper: (children) => <AuthContext.Provider value={user}>{children}</AuthContext.Provider>,
    });
  }

  it('after buying tokens offers "Create an NTRIP account" or "Activate a network"', async () => {
    window.sessionStorage.clear();
    renderCheckout('Token');
    expect(await screen.findByTestId('checkout-next-steps')).toHaveTextContent(/access to a network for the days/);
    expect(screen.getByRole('link', { name: 'Create an NTRIP account' })).toHaveAttribute('href', '/accounts?create=1');
    expect(screen.getByRole('link', { name: 'Activate a network' })).toHaveAttribute('href', '/accounts?activate=1');
  });

  it('after a subscription offers to create an account, which the subscription covers', async () => {
    window.sessionStorage.clear();
    renderCheckout('Subscription');
    expect(await screen.findByTestId('checkout-next-steps')).toHaveTextContent(/covers every NTRIP account/);
    expect(screen.getByRole('link', { name: 'Create an NTRIP account' })).toHaveAttribute('href', '/accounts?create=1');
    expect(screen.queryByRole('link', { name: 'Activate a network' })).not.toBeInTheDocument();
  });
});
