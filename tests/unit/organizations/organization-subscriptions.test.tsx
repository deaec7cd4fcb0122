import type { AdminSubscription, Organization, OrganizationRole } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthContext } from '../../../src/features/auth/auth-context';
import { OrganizationsPage } from '../../../src/features/organizations/OrganizationsPage';
import { adminSubscription, fakeUser, pricingProduct } from '../support/factories';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

const ORG = '6f0c1a52-8d4e-4d7b-9a43-2f3a1c9b7e10';

afterEach(() => {
  vi.restoreAllMocks();
});

const subscription = (overrides: Partial<AdminSubscription> = {}) =>
  adminSubscription({ userId: 'buyer', userEmail: 'buyer@crew.test', organizationId: ORG, ...overrides });

/** The organisation's calls as the server answers them for a caller with `role`. */
function serve(role: OrganizationRole, subscriptions: AdminSubscription[]) {
  const calls: { method: string; path: string; body?: unknown; query?: string }[] = [];
  const org: Organization = {
    id: ORG,
    name: 'Survey Crew',
    role,
    memberCount: 3,
    tokenAmount: 0,
    createdAt: '2026-11-01T00:00:00Z',
  };
  let current = subscriptions;
  server.use(
    // Page meta is not what these tests are about.
    http.get('*/api/meta/pages/*', () => HttpResponse.json({ code: 'not_found', message: 'none' }, { status: 404 })),
    http.get('*/api/invites', () => HttpResponse.json([])),
    http.get(`*/api/org/${ORG}`, () => HttpResponse.json(org)),
    http.get(`*/api/org/${ORG}/api-keys`, () => HttpResponse.json({ items: [] })),
    http.get(`*/api/org/${ORG}/webhooks`, () => HttpResponse.json({ items: [] })),
    http.get('*/api/tokenProducts', () => HttpResponse.json([])),
    http.get(`*/api/org/${ORG}/members`, () => HttpResponse.json([])),
    http.get(`*/api/org/${ORG}/invites`, () => HttpResponse.json([])),
    http.get(`*/api/org/${ORG}/subscriptions`, () => HttpResponse.json({ subscriptions: current })),
    http.get(`*/api/org/${ORG}/billing/details`, () => HttpResponse.json({ details: null })),
    http.get('*/api/billing/tax-info', () => HttpResponse.json({ pricesIncludeTax: false })),
    http.delete(`*/api/org/${ORG}/subscriptions`, async ({ request }) => {
      const body = (await request.json()) as { subscriptionId: string };
      calls.push({ method: 'DELETE', path: `/org/${ORG}/subscriptions`, body });
      current = current.map((s) =>
        s.id === body.subscriptionId ? { ...s, status: 'cancelling', canCancel: false, canResume: true } : s,
      );
      return HttpResponse.json(current.find((s) => s.id === body.subscriptionId));
    }),
    http.get('*/api/stripe/subscription-pricing-tables', () =>
      HttpResponse.json([
        {
          name: 'RTK',
          data: [pricingProduct({ name: 'RTK Weekly', priceId: 'price_weekly', amount: 1500, interval: 'WEEKLY' })],
        },
      ]),
    ),
    http.post('*/api/checkout/subscription', ({ request }) => {
      calls.push({ method: 'POST', path: '/checkout/subscription', query: new URL(request.url).search });
      return HttpResponse.json({
        url: `http://portal.test/checkout?checkoutSessionId=cs&orgId=${ORG}`,
        checkoutSessionId: 'cs',
      });
    }),
  );
  return calls;
}

function renderPage() {
  const user = fakeUser({
    teams: [{ id: ORG, name: 'Survey Crew', role: 'member', url: `/settings/organization?org=${ORG}` }],
  });
  renderWithProviders(<OrganizationsPage />, {
    route: `/settings/organization?org=${ORG}`,
    wrapper: (children) => <AuthContext.Provider value={user}>{children}</AuthContext.Provider>,
  });
  return userEvent.setup();
}

const section = async () => {
  const heading = await screen.findByRole('heading', { name: 'Subscriptions' });
  return heading.closest('section') as HTMLElement;
};

describe("an organisation's subscriptions on /settings/organization", () => {
  it('shows a member what the organisation pays for and who bought it, without cancel or buy', async () => {
    serve('member', [subscription({ canCancel: false })]);
    renderPage();
    const own = await section();
    expect(await within(own).findByText('RTK Monthly')).toBeInTheDocument();
    expect(within(own).getByText('buyer@crew.test')).toBeInTheDocument();
    expect(within(own).getByText('Active')).toBeInTheDocument();
    expect(within(own).queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
    expect(within(own).queryByRole('button', { name: 'Buy for the organisation' })).not.toBeInTheDocument();
  });

  it("lets an admin cancel: DELETE /org/{orgId}/subscriptions with the subscriptionId, then the row's new state", async () => {
    const calls = serve('admin', [subscription({})]);
    const user = renderPage();
    const own = await section();
    await user.click(await within(own).findByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(calls).toEqual([
        {
          method: 'DELETE',
          path: `/org/${ORG}/subscriptions`,
          body: { subscriptionId: 'a1b2c3d4-0000-4000-8000-000000000001' },
        },
      ]),
    );
    expect(await within(own).findByText('Cancels at period end')).toBeInTheDocument();
    expect(within(own).getByRole('button', { name: 'Resume' })).toBeInTheDocument();
  });

  it('lets an owner buy a plan for the organisation: the checkout carries its orgId', async () => {
    const calls = serve('owner', []);
    const open = vi.spyOn(window, 'open').mockReturnValue({ opener: null } as Window);
    const user = renderPage();
    const own = await section();
    expect(await within(own).findByText('This organisation has no subscriptions yet.')).toBeInTheDocument();
    await user.click(within(own).getByRole('button', { name: 'Buy for the organisation' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByRole('button', { name: 'Buy' }));
    await waitFor(() =>
      expect(open).toHaveBeenCalledWith(`http://portal.test/checkout?checkoutSessionId=cs&orgId=${ORG}`, '_blank'),
    );
    expect(calls).toEqual([
      { method: 'POST', path: '/checkout/subscription', query: `?priceId=price_weekly&orgId=${ORG}` },
    ]);
  });

  it('says the organisation, not the user, already has a plan when the server answers already_subscribed', async () => {
    serve('owner', []);
    server.use(
      http.post('*/api/checkout/subscription', () =>
        HttpResponse.json({ code: 'already_subscribed', message: 'no' }, { status: 409 }),
      ),
    );
    const user = renderPage();
    await user.click(await within(await section()).findByRole('button', { name: 'Buy for the organisation' }));
    await user.click(await within(await screen.findByRole('dialog')).findByRole('button', { name: 'Buy' }));
    expect(await screen.findByTestId('checkout-error')).toHaveTextContent(
      "The organisation already has this subscription. It is listed on the organisation's page.",
    );
  });
});
