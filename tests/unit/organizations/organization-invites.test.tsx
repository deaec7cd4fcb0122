import type { MyInvite, Organization } from '@portal/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthContext, type LoggedInUser } from '../../../src/features/auth/auth-context';
import { OrganizationsPage } from '../../../src/features/organizations/OrganizationsPage';
import { fakeUser } from '../support/factories';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

const { sendEmailVerification, currentUser } = vi.hoisted(() => ({
  sendEmailVerification: vi.fn(),
  currentUser: { uid: 'u1' },
}));
vi.mock('firebase/auth', async () => ({
  ...(await import('../auth/firebase-mock')).firebaseAuthMock,
  sendEmailVerification,
}));
vi.mock('../../../src/lib/firebase', () => ({ firebaseAuth: () => ({ currentUser }) }));

const ORG = '6f0c1a52-8d4e-4d7b-9a43-2f3a1c9b7e10';
const OTHER_ORG = '0b7e2a41-3c5d-4e6f-8a9b-1c2d3e4f5a6b';
const LINK = 'https://portal.example.test/invites/accept?token=s3cr3t-t0ken';

afterEach(() => {
  sendEmailVerification.mockReset();
});

/** The organisation calls of an owner's page; `myInvites` answers GET /invites (the server's view of the caller). */
function serve(myInvites: () => MyInvite[], mailed = true) {
  const org: Organization = {
    id: ORG,
    name: 'Polder Surveys',
    role: 'owner',
    memberCount: 1,
    tokenAmount: 0,
    createdAt: '2026-11-01T00:00:00Z',
  };
  const invited: string[] = [];
  server.use(
    http.get('*/api/meta/pages/*', () => HttpResponse.json({ code: 'not_found', message: 'none' }, { status: 404 })),
    http.get('*/api/invites', () => HttpResponse.json(myInvites())),
    http.get(`*/api/org/${ORG}`, () => HttpResponse.json(org)),
    http.get(`*/api/org/${ORG}/api-keys`, () => HttpResponse.json({ items: [] })),
    http.get(`*/api/org/${ORG}/webhooks`, () => HttpResponse.json({ items: [] })),
    http.get(`*/api/org/${ORG}/members`, () => HttpResponse.json([])),
    http.get(`*/api/org/${ORG}/invites`, () => HttpResponse.json([])),
    http.get(`*/api/org/${ORG}/subscriptions`, () => HttpResponse.json({ subscriptions: [] })),
    http.get(`*/api/org/${ORG}/billing/details`, () => HttpResponse.json({ details: null })),
    http.post(`*/api/org/${ORG}/invites`, async ({ request }) => {
      invited.push(((await request.json()) as { email: string }).email);
      return HttpResponse.json({ success: true, link: LINK, mailed }, { status: 201 });
    }),
  );
  return invited;
}

function renderPage(user: LoggedInUser) {
  renderWithProviders(<OrganizationsPage />, {
    route: `/settings/organization?org=${ORG}`,
    wrapper: (children) => <AuthContext.Provider value={user}>{children}</AuthContext.Provider>,
  });
  return userEvent.setup();
}

const owner = () =>
  fakeUser({
    emailVerified: true,
    teams: [{ id: ORG, name: 'Polder Surveys', role: 'owner', url: `/settings/organization?org=${ORG}` }],
  });

describe('sending an invite', () => {
  it('shows the secret link the server answered, with a copy button and the truth about e-mail', async () => {
    const invited = serve(() => []);
    const u = renderPage(owner());
    await u.type(await screen.findByLabelText('Invite by e-mail:'), 'Colleague@Example.test');
    await u.click(screen.getByRole('button', { name: 'Send invitation' }));

    const field = await screen.findByLabelText('Invite link:');
    expect(field).toHaveValue(LINK);
    expect(field).toHaveAttribute('readonly');
    expect(invited).toEqual(['Colleague@Example.test']);
    expect(screen.getByText('Invitation for colleague@example.test created.')).toBeInTheDocument();
    expect(
      screen.getByText(/The portal also e-mails this link to [^ ]+\. You can pass it on yourself as well/),
    ).toBeVisible();

    await u.click(screen.getByRole('button', { name: 'Copy invite link' }));
    await expect(navigator.clipboard.readText()).resolves.toBe(LINK);
    // The field is emptied for the next colleague; the link stays until then.
    expect(screen.getByLabelText('Invite by e-mail:')).toHaveValue('');
  });

  it('does not claim the link was e-mailed when the portal sends no mail: the inviter passes it on', async () => {
    serve(() => [], false);
    const u = renderPage(owner());
    await u.type(await screen.findByLabelText('Invite by e-mail:'), 'colleague@example.test');
    await u.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByLabelText('Invite link:')).toHaveValue(LINK);
    expect(screen.getByTestId('invite-link-mailed')).toHaveTextContent(
      'This portal sends no e-mail, so colleague@example.test has not received it: pass this link on yourself.',
    );
    expect(screen.queryByText(/The portal also e-mails this link/)).toBeNull();
  });

  it('shows no link when the server refuses the invite, only its message', async () => {
    serve(() => []);
    server.use(
      http.post(`*/api/org/${ORG}/invites`, () =>
        HttpResponse.json(
          { code: 'already_invited', message: 'colleague@example.test has already been invited.' },
          { status: 409 },
        ),
      ),
    );
    const u = renderPage(owner());
    await u.type(await screen.findByLabelText('Invite by e-mail:'), 'colleague@example.test');
    await u.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('colleague@example.test has already been invited.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Invite link:')).not.toBeInTheDocument();
  });
});

/** A user whose refetch reads Firebase's verdict `verifiedAfterRefresh()`, as reload + a new ID token do. */
function UnverifiedUser({ verifiedAfterRefresh }: { verifiedAfterRefresh: () => boolean }) {
  const [verified, setVerified] = useState(false);
  const user = fakeUser({
    email: 'newbie@example.test',
    emailVerified: verified,
    refetch: async () => setVerified(verifiedAfterRefresh()),
  });
  return (
    <AuthContext.Provider value={user}>
      <OrganizationsPage />
    </AuthContext.Provider>
  );
}

describe('invites for a user whose e-mail is not verified', () => {
  const invite: MyInvite = {
    organization: { id: OTHER_ORG, name: 'Dune Drones' },
    status: 'pending',
    createdAt: '2026-11-20T00:00:00Z',
  };

  function setup(verifiedAfterRefresh: () => boolean) {
    let serverSeesVerified = false;
    serve(() => (serverSeesVerified ? [invite] : []));
    renderWithProviders(
      <UnverifiedUser
        verifiedAfterRefresh={() => {
          serverSeesVerified = verifiedAfterRefresh();
          return serverSeesVerified;
        }}
      />,
      { route: '/settings/organization' },
    );
    return userEvent.setup();
  }

  it('explains why no invite shows, sends the verification e-mail, and shows the invites after a refresh', async () => {
    sendEmailVerification.mockResolvedValue(undefined);
    const u = setup(() => true);
    const notice = (await screen.findByRole('heading', { name: 'Verify your e-mail address' })).closest(
      'section',
    ) as HTMLElement;
    expect(
      within(notice).getByText(/Invitations sent to newbie@example\.test show here once you have verified/),
    ).toBeInTheDocument();

    await u.click(within(notice).getByRole('button', { name: 'Send verification e-mail' }));
    expect(await within(notice).findByText(/We sent a verification e-mail to newbie@example\.test/)).toBeVisible();
    expect(sendEmailVerification).toHaveBeenCalledWith(currentUser, { url: window.location.href });

    await u.click(within(notice).getByRole('button', { name: 'I have verified my e-mail' }));
    expect(await screen.findByText('Dune Drones invited you to join.')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Verify your e-mail address' })).not.toBeInTheDocument();
  });

  it('says so when the address is still unverified after the refresh', async () => {
    const u = setup(() => false);
    await u.click(await screen.findByRole('button', { name: 'I have verified my e-mail' }));
    expect(await screen.findByText(/Your e-mail address is not verified yet/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Verify your e-mail address' })).toBeInTheDocument();
  });

  it("shows Firebase's reason when the verification e-mail cannot be sent", async () => {
    sendEmailVerification.mockRejectedValue(
      Object.assign(new Error('Firebase: Error (auth/too-many-requests).'), { code: 'auth/too-many-requests' }),
    );
    const u = setup(() => false);
    await u.click(await screen.findByRole('button', { name: 'Send verification e-mail' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many attempts. Please wait a moment and try again.',
    );
  });
});
