import type { Subscription } from '@portal/contract';
import { screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { AuthContext } from '../../../src/features/auth/auth-context';
import { DashboardStats } from '../../../src/features/dashboard/DashboardStats';
import { adminSubscription, user } from '../support/factories';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

const CREW = '0b7c6a2e-3f4d-4e5a-9b8c-1d2e3f4a5b6c';
const FLEET = '6f1e2d3c-4b5a-4968-8776-655443322110';

/** The `i`th subscription, the user's own or (with `organizationId`) an organisation's as its list shows it. */
function subscription(status: Subscription['status'], organizationId: string | null, i: number) {
  return adminSubscription({
    id: `0000000${i}-0000-4000-8000-000000000000`,
    organizationId,
    status,
    cancelAtPeriodEnd: status === 'cancelling',
  });
}

describe('dashboard: Active subscriptions', () => {
  it("counts the active subscriptions of the user's organisations beside their own", async () => {
    server.use(
      http.get('*/api/subscriptions', () =>
        HttpResponse.json({ tokenAmount: 0, subscriptions: [subscription('active', null, 1)] }),
      ),
      http.get('*/api/org/:orgId/subscriptions', ({ params }) =>
        HttpResponse.json({
          subscriptions:
            params.orgId === CREW
              ? [subscription('active', CREW, 2), subscription('cancelled', CREW, 3)]
              : [subscription('cancelling', FLEET, 4)],
        }),
      ),
      http.get('*/api/ntrip-accounts', () => HttpResponse.json({ items: [] })),
    );
    const teams = [
      { id: CREW, name: 'Survey Crew', role: 'member', url: `/settings/organization?org=${CREW}` },
      { id: FLEET, name: 'Drone Fleet', role: 'owner', url: `/settings/organization?org=${FLEET}` },
    ];
    renderWithProviders(<DashboardStats />, {
      wrapper: (children) => <AuthContext.Provider value={{ ...user, teams }}>{children}</AuthContext.Provider>,
    });
    const card = () => screen.getByText('Active subscriptions').closest('a') as HTMLAnchorElement;
    await waitFor(() => expect(card()).toHaveTextContent('3'));
    expect(card()).toHaveTextContent('2 of them through your organisations');
  });
});
