import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { COPY_CONFIRMATION_MS } from '../../../src/components/CopyControl';
import { ModalProvider } from '../../../src/components/modal';
import { AccountsPage } from '../../../src/features/accounts/AccountsPage';
import { relayAddress } from '../../../src/features/accounts/relay';
import { AuthContext } from '../../../src/features/auth/auth-context';
import { account, mountpoints, NETWORK_ID, network, tokenTables, user } from '../support/factories';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

function setup(handlers: Parameters<typeof server.use> = [], route = '/accounts') {
  server.use(
    http.get('*/api/subscriptions', () => HttpResponse.json({ subscriptions: [], tokenAmount: 25 })),
    http.get('*/api/networks', () => HttpResponse.json({ items: [network()] })),
    http.get('*/api/meta/pages/:page', () =>
      HttpResponse.json({ code: 'not_found', message: 'none' }, { status: 404 }),
    ),
    ...handlers,
    // After the test's own: the activation and the card read the newest sessions for the last position (GGA).
    http.get('*/api/ntrip-accounts/:id/sessions', () =>
      HttpResponse.json({ items: [], total: 0, limit: 20, offset: 0 }),
    ),
    http.get('*/api/tokenProducts', () => HttpResponse.json(tokenTables)),
  );
  renderWithProviders(<AccountsPage />, {
    route,
    // The user is above the modal host in the app, so dialogs see it too.
    wrapper: (children) => (
      <AuthContext.Provider value={user}>
        <ModalProvider>{children}</ModalProvider>
      </AuthContext.Provider>
    ),
  });
  return userEvent.setup();
}

describe('/accounts', () => {
  it('lists the accounts in the card section with username, status, networks and connection', async () => {
    setup([
      http.get('*/api/ntrip-accounts', () =>
        HttpResponse.json({
          items: [
            account(),
            account({
              id: 'dddddddd-dddd-4ddd-8ddd-dddddddddddd',
              label: 'Drone',
              username: 'rtk-drone234',
              status: 'disabled',
              enabled: false,
              grants: [],
              connectedNow: 0,
              lastSeenAt: '2026-11-20T10:00:00.000Z',
            }),
          ],
        }),
      ),
    ]);
    const section = await screen.findByRole('region', { name: 'Your accounts' });
    expect(within(section).getByText('Tractor 7')).toBeInTheDocument();
    expect(within(section).getByText('rtk-abcd2345')).toBeInTheDocument();
    expect(within(section).getByText('Active')).toBeInTheDocument();
    expect(within(section).getByText(/Netherlands RTK until/)).toBeInTheDocument();
    expect(within(section).getByText('Never connected')).toBeInTheDocument();
    expect(within(section).getByText('Disabled')).toBeInTheDocument();
    expect(within(section).getByText(/Last seen/)).toBeInTheDocument();
  });

  it('creates an account and shows the password once, with copy controls and a warning', async () => {
    let created = false;
    const u = setup([
      http.get('*/api/ntrip-accounts', () => HttpResponse.json({ items: created ? [account({ label: 'Boat' })] : [] })),
      http.get('*/api/ntrip-accounts/:id/mountpoints', () => HttpResponse.json({ items: [] })),
      http.post('*/api/ntrip-accounts', async ({ request }) => {
        expect(await request.json()).toEqual({ label: 'Boat' });
        created = true;
        return HttpResponse.json(
          { account: account({ label: 'Boat' }), password: 'S3cretPassw0rdXYZabc' },
          { status: 201 },
        );
      }),
    ]);
    expect(
      await screen.findByText('You have no NTRIP accounts yet. Create one to connect a rover.'),
    ).toBeInTheDocument();
    await u.click(screen.getByRole('button', { name: 'Create account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create an NTRIP account' });
    await u.type(within(dialog).getByLabelText('Label:'), 'Boat');
    await u.click(within(dialog).getByRole('button', { name: 'Create account' }));

    const reveal = await screen.findByRole('dialog', { name: 'Account created' });
    expect(within(reveal).getByTestId('new-password')).toHaveTextContent('S3cretPassw0rdXYZabc');
    expect(within(reveal).getByTestId('new-username')).toHaveTextContent('rtk-abcd2345');
    expect(within(reveal).getByRole('alert')).toHaveTextContent(/shown only this once/);
    await u.click(within(reveal).getByRole('button', { name: 'Copy password' }));
    // userEvent provides the clipboard the control writes to.
    expect(await navigator.clipboard.readText()).toBe('S3cretPassw0rdXYZabc');
    expect(within(reveal).getByRole('button', { name: 'Copied' })).toBeInTheDocument();
    expect(COPY_CONFIRMATION_MS).toBe(2000);

    await u.click(within(reveal).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Boat')).toBeInTheDocument();
    expect(screen.queryByText('S3cretPassw0rdXYZabc')).not.toBeInTheDocument();
  });

  it('opens the create dialog from the quick link /accounts?create=1', async () => {
    setup([http.get('*/api/ntrip-accounts', () => HttpResponse.json({ items: [] }))], '/accounts?create=1');
    expect(await screen.findByRole('dialog', { name: 'Create an NTRIP account' })).toBeInTheDocument();
  });

  it('shows the connection card from Details: host and port, mountpoints, a str2str line for a fixed station', async () => {
    const u = setup([
      http.get('*/api/ntrip-accounts', () => HttpResponse.json({ items: [account()] })),
      http.get('*/api/ntrip-accounts/:id/mountpoints', () => HttpResponse.json({ items: mountpoints })),
    ]);
    await u.click(await screen.findByRole('button', { name: 'Details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Tractor 7' });
    const { host, port } = relayAddress();
    expect(within(dialog).getByTestId('caster-host')).toHaveTextContent(host);
    expect(within(dialog).getByTestId('caster-port')).toHaveTextContent(String(port));
    const list = await within(dialog).findByRole('region', { name: 'Mountpoints' });
    const names = within(list)
      .getAllByRole('listitem')
      .map((li) => li.querySelector('code')?.textContent);
    expect(names).toEqual(['NL-RTK_NEAR', 'GRON00NLD0', 'DLFT00NLD0']);
    expect(within(dialog).getByRole('button', { name: 'Copy mountpoint NL-RTK_NEAR' })).toBeInTheDocument();
    // Without a position the card recommends a station's own mountpoint, which needs none.
    expect(within(dialog).getByTestId('str2str-line')).toHaveTextContent(
      `str2str -in ntrip://rtk-abcd2345:<password>@${host}:${port}/GRON00NLD0 -out file://corrections.rtcm3`,
    );
    expect(within(dialog).getByText(/NTRIP 1.0 and NTRIP 2.0/)).toBeInTheDocument();
  });

  it('keeps the typed position for the account across tabs and a reopened dialog', async () => {
    const u = setup([
      http.get('*/api/ntrip-accounts', () => HttpResponse.json({ items: [account()] })),
      http.get('*/api/ntrip-accounts/:id/mountpoints', () => HttpResponse.json({ items: mountpoints })),
    ]);
    await u.click(await screen.findByRole('button', { name: 'Details' }));
    let dialog = await screen.findByRole('dialog', { name: 'Tractor 7' });
    await within(dialog).findByTestId('str2str-line');
    await u.type(within(dialog).getByLabelText('Latitude (°):'), '52.0');
    await u.type(within(dialog).getByLabelText('Longitude (°):'), '4.37');
    const withPosition = '/NL-RTK_NEAR -p 52.0000000 4.3700000 0.0 -n 5000';
    expect(within(dialog).getByTestId('str2str-line')).toHaveTextContent(withPosition);
    await u.click(within(dialog).getByRole('tab', { name: 'Manage' }));
    await u.click(within(dialog).getByRole('tab', { name: 'Connection' }));
    expect(await within(dialog).findByTestId('str2str-line')).toHaveTextContent(withPosition);
    expect(within(dialog).getByLabelText('Latitude (°):')).toHaveValue('52');
    await u.click(within(dialog).getByRole('button', { name: 'Close' }));
    await u.click(await screen.findByRole('button', { name: 'Details' }));
    dialog = await screen.findByRole('dialog', { name: 'Tractor 7' });
    expect(await within(dialog).findByTestId('str2str-line')).toHaveTextContent(withPosition);
  });

  it('deletes an account only after confirmation', async () => {
    let deleted = false;
    const u = setup([
      http.get('*/api/ntrip-accounts', () => HttpResponse.json({ items: deleted ? [] : [account()] })),
      http.get('*/api/ntrip-accounts/:id/mountpoints', () => HttpResponse.json({ items: [] })),
      http.delete('*/api/ntrip-accounts/:id', ({ params }) => {
        expect(params.id).toBe(account().id);
        deleted = true;
        return new HttpResponse(null, { status: 204 });
      }),
    ]);
    await u.click(await screen.findByRole('button', { name: 'Details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Tractor 7' });
    await u.click(within(dialog).getByRole('tab', { name: 'Manage' }));
    await u.click(within(dialog).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete Tractor 7?' });
    expect(deleted).toBe(false);
    expect(confirm).toHaveTextContent(/closed within seconds/);
    await u.click(within(confirm).getByRole('button', { name: 'Delete account' }));
    await waitFor(() => expect(deleted).toBe(true));
    expect(
      await screen.findByText('You have no NTRIP accounts yet. Create one to connect a rover.'),
    ).toBeInTheDocument();
  });

  it('offers an organisation member only what their role allows on its accounts (issue 32)', async () => {
    const u = setup([
      http.get('*/api/ntrip-accounts', () =>
        HttpResponse.json({
          items: [
            account({
              organization: {
                id: 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee',
                name: 'Dike Works',
                holderUserId: 'ffffffff-ffff-4fff-8fff-ffffffffffff',
                holderEmail: 'eva@example.test',
                canManage: false,
                canRenewPassword: false,
              },
            }),
          ],
        }),
      ),
      http.get('*/api/ntrip-accounts/:id/mountpoints', () => HttpResponse.json({ items: [] })),
    ]);
    await u.click(await screen.findByRole('button', { name: 'Details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Tractor 7' });
    expect(await within(dialog).findByText('Shown only when created or regenerated')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: /Regenerate/ })).toBeNull();
    await u.click(within(dialog).getByRole('tab', { name: 'Manage' }));
    expect(within(dialog).getByTestId('manage-not-allowed')).toHaveTextContent(
      'This account belongs to the organisation Dike Works: its owners and admins manage it.',
    );
    for (const name of [/Regenerate/, 'Delete', 'Rename']) {
      expect(within(dialog).queryByRole('button', { name })).toBeNull();
    }
    expect(within(dialog).queryByRole('switch')).toBeNull();
  });

  it('says a refused action is a missing permission, not something to try again', async () => {
    const u = setup([
      http.get('*/api/ntrip-accounts', () => HttpResponse.json({ items: [account()] })),
      http.get('*/api/ntrip-accounts/:id/mountpoints', () => HttpResponse.json({ items: [] })),
      http.delete('*/api/ntrip-accounts/:id', () =>
        HttpResponse.json(
          { code: 'forbidden', message: 'Only owners and admins of the organisation may do this.' },
          { status: 403 },
        ),
      ),
    ]);
    await u.click(await screen.findByRole('button', { name: 'Details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Tractor 7' });
    await u.click(within(dialog).getByRole('tab', { name: 'Manage' }));
    await u.click(within(dialog).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete Tractor 7?' });
    await u.click(within(confirm).getByRole('button', { name: 'Delete account' }));
    expect(await within(confirm).findByRole('alert')).toHaveTextContent(
      "You do not have permission to do this: only the organisation's owners and admins can change its NTRIP accounts.",
    );
    expect(confirm).not.toHaveTextContent('Please try again');
  });

  it('pages the usage list', async () => {
    const session = (i: number) => ({
      id: String(i),
      mountpoint: `MP${i}`,
      remoteAddress: '192.0.2.1',
      startedAt: '2026-11-20T10:00:00.000Z',
      endedAt: '2026-11-20T11:00:00.000Z',
      durationSeconds: 3600,
      bytesSent: 1_500_000,
      endReason: 'client_closed',
      lastPosition: i === 1 ? { latitude: 52.1, longitude: 5.2 } : null,
    });
    const u = setup([
      http.get('*/api/ntrip-accounts', () => HttpResponse.json({ items: [account()] })),
      http.get('*/api/ntrip-accounts/:id/mountpoints', () => HttpResponse.json({ items: [] })),
      http.get('*/api/ntrip-accounts/:id/sessions', ({ request }) => {
        const offset = Number(new URL(request.url).searchParams.get('offset'));
        return HttpResponse.json({ items: [session(offset / 20 + 1)], total: 21, limit: 20, offset });
      }),
    ]);
    await u.click(await screen.findByRole('button', { name: 'Details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Tractor 7' });
    await u.click(within(dialog).getByRole('tab', { name: 'Usage' }));
    expect(await within(dialog).findByText('MP1')).toBeInTheDocument();
    expect(within(dialog).getByText('1 h 0 min')).toBeInTheDocument();
    expect(within(dialog).getByText('1.5 MB')).toBeInTheDocument();
    expect(within(dialog).getByText('Closed by the rover')).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: /Show 52.10000, 5.20000 on a map/ })).toBeInTheDocument();
    expect(within(dialog).getByText('Page 1 of 2')).toBeInTheDocument();
    await u.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(await within(dialog).findByText('MP2')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Download CSV' })).toBeEnabled();
  });
});

describe('token activation', () => {
  it('shows the price (price per day × days) and the balance after before confirming, then activates', async () => {
    let body: unknown;
    const u = setup([
      http.get('*/api/ntrip-accounts', () => HttpResponse.json({ items: [account({ grants: [] })] })),
      http.post('*/api/tokens', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ grant: account().grants[0], tokensSpent: 20, tokenAmount: 5 }, { status: 201 });
      }),
    ]);
    await u.click(await screen.findByRole('button', { name: 'Activate tokens' }));
    const dialog = await screen.findByRole('dialog', { name: 'Activate tokens' });
    const days = within(dialog).getByLabelText('Days:');
    await u.clear(days);
    await u.type(days, '2');
    expect(within(dialog).getByTestId('activation-price')).toHaveTextContent('20 tokens (€1.60–€2.00)');
    expect(
      within(dialog).getByRole('option', { name: /Netherlands RTK · 10 tokens \(€0\.80–€1\.00\) per day/ }),
    ).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).getByTestId('activation-balance-after')).toHaveTextContent('5 tokens'));
    await u.click(within(dialog).getByRole('button', { name: 'Activate for 20 tokens' }));
    expect(await screen.findByRole('dialog', { name: 'Activated' })).toBeInTheDocument();
    expect(body).toEqual({ accountId: account().id, feedNetworkId: NETWORK_ID, days: 2 });
  });

  it('offers to buy tokens when the server answers 402 insufficient_tokens', async () => {
    const u = setup([
      http.get('*/api/ntrip-accounts', () => HttpResponse.json({ items: [account({ grants: [] })] })),
      http.post('*/api/tokens', () =>
        HttpResponse.json(
          { code: 'insufficient_tokens', message: 'Not enough tokens', needed: 30, balance: 25 },
          { status: 402 },
        ),
      ),
    ]);
    await u.click(await screen.findByRole('button', { name: 'Activate tokens' }));
    const dialog = await screen.findByRole('dialog', { name: 'Activate tokens' });
    const days = within(dialog).getByLabelText('Days:');
    await u.clear(days);
    await u.type(days, '3');
    await waitFor(() => expect(within(dialog).getByTestId('activation-balance-after')).toHaveTextContent('-5 tokens'));
    // Short before confirming: the offer to buy tokens shows already.
    expect(within(dialog).getByTestId('activation-short')).toHaveTextContent('needs 30 tokens and your balance is 25');
    await u.click(within(dialog).getByRole('button', { name: 'Activate for 30 tokens' }));
    const offer = await screen.findByRole('dialog', { name: 'Not enough tokens' });
    expect(offer).toHaveTextContent('This activation needs 30 tokens and your balance is 25.');
    expect(within(offer).getByRole('link', { name: 'Buy tokens' })).toHaveAttribute('href', '/credits');
  });
});

describe('relay configuration', () => {
  it('reads host, port and TLS port from the build configuration, with defaults', () => {
    expect(
      relayAddress({ VITE_RELAY_HOST: 'caster.example.com', VITE_RELAY_PORT: '2111', VITE_RELAY_TLS_PORT: '443' }),
    ).toEqual({ host: 'caster.example.com', port: 2111, tlsPort: 443 });
    expect(relayAddress({ VITE_RELAY_HOST: '', VITE_RELAY_PORT: 'x', VITE_RELAY_TLS_PORT: '70000' })).toEqual({
      host: 'localhost',
      port: 2101,
      tlsPort: 2102,
    });
  });
});
