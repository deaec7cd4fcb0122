import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import type { ReactElement } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ModalProvider } from '../../../src/components/modal';
import { AdminAccountsPage } from '../../../src/features/accounts/AdminAccountsPage';
import { AuthContext } from '../../../src/features/auth/auth-context';
import { DashboardStats } from '../../../src/features/dashboard/DashboardStats';
import { account, adminAccount, NETWORK_ID, network, subscription, user } from '../support/factories';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

function renderAs(ui: ReactElement, isAdmin = false) {
  renderWithProviders(ui, {
    wrapper: (children) => (
      <AuthContext.Provider value={{ ...user, isAdmin }}>
        <ModalProvider>{children}</ModalProvider>
      </AuthContext.Provider>
    ),
  });
  return userEvent.setup();
}

describe('/admin/accounts', () => {
  // The live sessions and the admin-wide log of unknown usernames below the table, empty here.
  beforeEach(() => {
    server.use(
      http.get('*/api/admin/ntrip-login-failures', () =>
        HttpResponse.json({ items: [], total: 0, limit: 20, offset: 0 }),
      ),
      http.get('*/api/admin/ntrip-live-sessions', () =>
        HttpResponse.json({ items: [], complete: true, at: '2026-11-24T10:00:00.000Z' }),
      ),
    );
  });
  it('lists accounts with their owner, searches on the server, disables and grants access manually', async () => {
    const searches: Array<string | null> = [];
    const patches: unknown[] = [];
    const grants: unknown[] = [];
    server.use(
      http.get('*/api/meta/pages/:page', () => HttpResponse.json({ code: 'not_found', message: '' }, { status: 404 })),
      http.get('*/api/networks', () => HttpResponse.json({ items: [network()] })),
      http.get('*/api/admin/ntrip-accounts', ({ request }) => {
        const search = new URL(request.url).searchParams.get('search');
        searches.push(search);
        const items = search
          ? [adminAccount({ connectedNow: 3 })]
          : [
              adminAccount(),
              adminAccount({
                id: 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee',
                username: 'rtk-other234',
                ownerEmail: 'b@example.test',
              }),
            ];
        return HttpResponse.json({ items, total: items.length, limit: 25, offset: 0 });
      }),
      http.patch('*/api/admin/ntrip-accounts/:id', async ({ request }) => {
        patches.push(await request.json());
        return HttpResponse.json(adminAccount({ enabled: false, status: 'disabled' }));
      }),
      http.post('*/api/admin/ntrip-accounts/:id/grants', async ({ request }) => {
        grants.push(await request.json());
        return HttpResponse.json(account().grants[0], { status: 201 });
      }),
    );
    const u = renderAs(<AdminAccountsPage />, true);
    expect(await screen.findByText('owner@example.test')).toBeInTheDocument();
    expect(screen.getByText('b@example.test')).toBeInTheDocument();
    expect(screen.getByText('2 accounts')).toBeInTheDocument();

    await u.type(screen.getByLabelText('Search by username, label or owner e-mail:'), 'owner@');
    await waitFor(() => expect(searches).toContain('owner@'));
    await waitFor(() => expect(screen.queryByText('b@example.test')).not.toBeInTheDocument());
    const row = screen.getByText('rtk-abcd2345').closest('tr') as HTMLElement;
    expect(within(row).getByText('3')).toBeInTheDocument();

    await u.click(within(row).getByRole('button', { name: 'Disable rtk-abcd2345' }));
    await waitFor(() => expect(patches).toEqual([{ enabled: false }]));

    await u.click(within(row).getByRole('button', { name: 'Grant access rtk-abcd2345' }));
    const dialog = await screen.findByRole('dialog', { name: 'Grant access to rtk-abcd2345' });
    const days = within(dialog).getByLabelText('Days:');
    await u.clear(days);
    await u.type(days, '14');
    await u.click(within(dialog).getByRole('button', { name: 'Grant' }));
    await waitFor(() => expect(grants).toEqual([{ networkId: NETWORK_ID, days: 14 }]));
    expect(await screen.findByText(/Access granted until/)).toBeInTheDocument();
  });

  it('shows each account’s connection limit and lets an admin change it within its bounds', async () => {
    let limit = 1;
    let refuse = true;
    const puts: unknown[] = [];
    server.use(
      http.get('*/api/meta/pages/:page', () => HttpResponse.json({ code: 'not_found', message: '' }, { status: 404 })),
      http.get('*/api/admin/ntrip-accounts', () =>
        HttpResponse.json({ items: [adminAccount({ maxConnections: limit })], total: 1, limit: 25, offset: 0 }),
      ),
      http.put('*/api/admin/ntrip-accounts/:id/max-connections', async ({ request }) => {
        const body = (await request.json()) as { maxConnections: number };
        puts.push(body);
        if (refuse) {
          refuse = false;
          return HttpResponse.json({ code: 'internal', message: 'boom' }, { status: 500 });
        }
        limit = body.maxConnections;
        return HttpResponse.json(adminAccount({ maxConnections: limit }));
      }),
    );
    const u = renderAs(<AdminAccountsPage />, true);
    expect(await screen.findByRole('columnheader', { name: 'Max. connections' })).toBeInTheDocument();
    const row = (await screen.findByText('rtk-abcd2345')).closest('tr') as HTMLElement;
    const limitCell = () => within(row).getAllByRole('cell')[5] as HTMLElement;
    expect(limitCell()).toHaveTextContent('1');

    await u.click(within(row).getByRole('button', { name: 'Change connection limit rtk-abcd2345' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connection limit of rtk-abcd2345' });
    const field = within(dialog).getByLabelText('Max. connections:');
    expect(field).toHaveValue(1);
    const save = within(dialog).getByRole('button', { name: 'Save' });
    for (const bad of ['0', '101', '2.5']) {
      await u.clear(field);
      await u.type(field, bad);
      expect(save).toBeDisabled();
      expect(field).toHaveAttribute('aria-invalid', 'true');
    }
    expect(puts).toEqual([]);

    await u.clear(field);
    await u.type(field, '3');
    expect(field).not.toHaveAttribute('aria-invalid');
    await u.click(save);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('That did not work. Please try again.');
    await u.click(save);
    await waitFor(() => expect(puts).toEqual([{ maxConnections: 3 }, { maxConnections: 3 }]));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(limitCell()).toHaveTextContent('3'));
  });
});

describe('logged-in dashboard stat cards', () => {
  it('shows token balance, active subscriptions, NTRIP accounts and rovers connected now, linking to their pages', async () => {
    server.use(
      http.get('*/api/subscriptions', () =>
        HttpResponse.json({
          tokenAmount: 1250,
          subscriptions: (['active', 'cancelling', 'cancelled'] as const).map((status, i) =>
            subscription({ id: `0000000${i}-0000-4000-8000-000000000000`, status }),
          ),
        }),
      ),
      http.get('*/api/ntrip-accounts', () =>
        HttpResponse.json({
          items: [
            account({ connectedNow: 2 }),
            account({ id: 'dddddddd-dddd-4ddd-8ddd-dddddddddddd', connectedNow: 1 }),
          ],
        }),
      ),
    );
    renderAs(<DashboardStats />);
    const card = (title: string) => screen.getByText(title).closest('a') as HTMLAnchorElement;
    await waitFor(() => expect(card('Token balance')).toHaveTextContent('1,250'));
    expect(card('Token balance')).toHaveAttribute('href', '/credits');
    await waitFor(() => expect(card('Active subscriptions')).toHaveTextContent('2'));
    expect(card('Active subscriptions')).toHaveAttribute('href', '/subscriptions');
    await waitFor(() => expect(card('NTRIP accounts')).toHaveTextContent('2'));
    expect(card('NTRIP accounts')).toHaveAttribute('href', '/accounts');
    expect(card('Rovers connected now')).toHaveTextContent('3');
    expect(card('Rovers connected now')).toHaveAttribute('href', '/accounts');
  });
});
