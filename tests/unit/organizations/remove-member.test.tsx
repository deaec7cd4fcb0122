import type { Member, Organization } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthContext } from '../../../src/features/auth/auth-context';
import { OrganizationsPage } from '../../../src/features/organizations/OrganizationsPage';
import { fakeUser } from '../support/factories';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

vi.mock('firebase/auth', async () => (await import('../auth/firebase-mock')).firebaseAuthMock);
vi.mock('../../../src/lib/firebase', () => ({ firebaseAuth: () => ({ currentUser: { uid: 'u1' } }) }));

const ORG = '6f0c1a52-8d4e-4d7b-9a43-2f3a1c9b7e10';
const PIET = '1d2e3f40-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const org: Organization = {
  id: ORG,
  name: 'Polder Surveys',
  role: 'owner',
  memberCount: 2,
  tokenAmount: 0,
  createdAt: '2026-11-01T00:00:00Z',
};
const piet: Member = {
  userId: PIET,
  email: 'piet@example.test',
  displayName: 'Piet Jansen',
  role: 'member',
  joinedAt: '2026-11-02T00:00:00Z',
};
const removed: string[] = [];

beforeEach(() => {
  removed.length = 0;
  server.use(
    http.get('*/api/meta/pages/*', () => HttpResponse.json({ code: 'not_found', message: 'none' }, { status: 404 })),
    http.get('*/api/invites', () => HttpResponse.json([])),
    http.get(`*/api/org/${ORG}`, () => HttpResponse.json(org)),
    http.get(`*/api/org/${ORG}/api-keys`, () => HttpResponse.json({ items: [] })),
    http.get(`*/api/org/${ORG}/webhooks`, () => HttpResponse.json({ items: [] })),
    http.get(`*/api/org/${ORG}/members`, () => HttpResponse.json(removed.includes(PIET) ? [] : [piet])),
    http.get(`*/api/org/${ORG}/invites`, () => HttpResponse.json([])),
    http.get(`*/api/org/${ORG}/subscriptions`, () => HttpResponse.json({ subscriptions: [] })),
    http.get(`*/api/org/${ORG}/billing/details`, () => HttpResponse.json({ details: null })),
    http.delete(`*/api/org/${ORG}/members`, async ({ request }) => {
      removed.push(((await request.json()) as { forMember: string }).forMember);
      return HttpResponse.json({ success: true });
    }),
  );
});

function renderPage() {
  const owner = fakeUser({
    emailVerified: true,
    teams: [{ id: ORG, name: 'Polder Surveys', role: 'owner', url: `/settings/organization?org=${ORG}` }],
  });
  renderWithProviders(<OrganizationsPage />, {
    route: `/settings/organization?org=${ORG}`,
    wrapper: (children) => <AuthContext.Provider value={owner}>{children}</AuthContext.Provider>,
  });
  return userEvent.setup();
}

describe('removing a member of an organisation', () => {
  it('asks first, naming the member, and removes them only once confirmed', async () => {
    const u = renderPage();
    await u.click(await screen.findByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Piet Jansen?' });
    expect(dialog).toHaveTextContent('Piet Jansen will no longer be a member of Polder Surveys.');
    expect(removed).toEqual([]);

    await u.click(within(dialog).getByRole('button', { name: 'Remove member' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(removed).toEqual([PIET]);
    await waitFor(() => expect(screen.queryByText('Piet Jansen')).not.toBeInTheDocument());
  });

  it('keeps the member when the confirmation is cancelled', async () => {
    const u = renderPage();
    await u.click(await screen.findByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Piet Jansen?' });
    await u.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(removed).toEqual([]);
    expect(screen.getByText('Piet Jansen')).toBeInTheDocument();
  });
});
