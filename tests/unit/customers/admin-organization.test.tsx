import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdminOrganizationPage } from '../../../src/features/customers/AdminOrganizationPage';
import { account } from '../support/factories';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

const ORG = '88888888-8888-4888-8888-888888888888';
const HOLDER = '99999999-9999-4999-8999-999999999999';
const dredger = account({
  label: 'Dredger',
  organization: {
    id: ORG,
    name: 'Dike Works',
    holderUserId: HOLDER,
    holderEmail: 'eva@example.test',
    canManage: true,
    canRenewPassword: true,
  },
});
const writes: string[] = [];
let accounts = [dredger];

beforeEach(() =>
  server.use(
    // The page's title and description: none stored, so the defaults.
    http.get('*/api/meta/pages/:page', () =>
      HttpResponse.json({ code: 'not_found', message: 'No meta.' }, { status: 404 }),
    ),
    http.get('*/api/admin/organizations/:id', () =>
      HttpResponse.json({
        organization: { id: ORG, name: 'Dike Works', createdAt: '2026-11-01T00:00:00Z', disabledAt: null },
        members: [
          {
            userId: HOLDER,
            email: 'eva@example.test',
            displayName: 'Eva',
            role: 'owner',
            joinedAt: '2026-11-01T00:00:00Z',
          },
        ],
        invites: [],
        subscriptions: [],
        ntripAccounts: accounts,
      }),
    ),
    http.post('*/api/admin/ntrip-accounts/:id/password', ({ params }) => {
      writes.push(`reset ${params.id}`);
      return HttpResponse.json({ account: dredger, password: 'fresh-secret-once' });
    }),
    http.delete('*/api/admin/ntrip-accounts/:id', ({ params }) => {
      writes.push(`delete ${params.id}`);
      accounts = [];
      return new HttpResponse(null, { status: 204 });
    }),
  ),
);
afterEach(() => {
  writes.length = 0;
  accounts = [dredger];
});

function renderPage() {
  renderWithProviders(
    <Routes>
      <Route path="/admin/organizations/:orgId" element={<AdminOrganizationPage />} />
    </Routes>,
    { route: `/admin/organizations/${ORG}` },
  );
  return userEvent.setup();
}

describe("the admin organisation page's NTRIP accounts", () => {
  it('lists each account with the member who uses it, and resets its password after a confirmation', async () => {
    const u = renderPage();
    const section = await screen.findByRole('region', { name: 'NTRIP accounts' });
    const card = await within(section).findByTestId('customer-ntrip');
    expect(card).toHaveTextContent('Dredger');
    expect(within(card).getByRole('link', { name: 'eva@example.test' })).toHaveAttribute(
      'href',
      `/admin/users/${HOLDER}`,
    );
    await u.click(within(card).getByRole('button', { name: 'Reset password' }));
    const confirm = await screen.findByRole('dialog');
    expect(writes).toEqual([]);
    await u.click(within(confirm).getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByTestId('ntrip-password')).toHaveTextContent('fresh-secret-once');
    expect(writes).toEqual([`reset ${dredger.id}`]);
  });

  it('deletes an account after a confirmation, and the section then says there are none', async () => {
    const u = renderPage();
    const section = await screen.findByRole('region', { name: 'NTRIP accounts' });
    await u.click(await within(section).findByRole('button', { name: 'Delete' }));
    await u.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(writes).toEqual([`delete ${dredger.id}`]));
    expect(await screen.findByText('This organisation has no NTRIP accounts.')).toBeInTheDocument();
  });
});
