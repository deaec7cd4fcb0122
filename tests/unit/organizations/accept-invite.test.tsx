import { INVITE_LINK_PATH } from '@portal/contract/invite-link';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { useState } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { AuthContext, type LoggedInUser } from '../../../src/features/auth/auth-context';
import { LoginModalContext, type LoginModalView } from '../../../src/features/auth/login-modal-context';
import { AcceptInvitePage } from '../../../src/features/organizations/AcceptInvitePage';
import { keepInviteTokenFromUrl } from '../../../src/features/organizations/invite-link';
import { fakeUser } from '../support/factories';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

const ORG = '6f0c1a52-8d4e-4d7b-9a43-2f3a1c9b7e10';
beforeEach(() =>
  server.use(
    http.get('*/api/meta/pages/*', () => HttpResponse.json({ code: 'not_found', message: 'none' }, { status: 404 })),
    http.post('*/api/invites/preview', () =>
      HttpResponse.json({ organization: { name: 'Polder Surveys' }, inviter: 'Eva de Vries' }),
    ),
  ),
);
beforeEach(() => {
  sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});

/** POST /invites/accept answering `status` with `answer`; records the tokens sent. */
function serveAccept(status = 200, answer: unknown = undefined) {
  const tokens: string[] = [];
  server.use(
    http.post('*/api/invites/accept', async ({ request }) => {
      tokens.push(((await request.json()) as { token: string }).token);
      return HttpResponse.json(
        answer ?? {
          success: true,
          organization: { id: ORG, name: 'Polder Surveys' },
          url: `/settings/organization?org=${ORG}`,
        },
        { status },
      );
    }),
  );
  return tokens;
}

function OrganizationPageStandIn() {
  const { pathname, search } = useLocation();
  return <p>organisation page {pathname + search}</p>;
}

/**
 * The accept page under a login modal whose log-in or sign-up ends with `loggingIn` signed in, as the real modal does
 * over the page (it never navigates). `opened` records the views asked for.
 */
function Shell({
  user,
  loggingIn,
  opened,
}: {
  user?: LoggedInUser;
  loggingIn?: LoggedInUser;
  opened: LoginModalView[];
}) {
  const [auth, setAuth] = useState(user);
  const modal = {
    isOpen: false,
    view: 'login' as const,
    open: (view: LoginModalView = 'login') => {
      opened.push(view);
      setAuth(loggingIn);
    },
    close: () => {},
  };
  return (
    <AuthContext.Provider value={auth}>
      <LoginModalContext.Provider value={modal}>
        <Routes>
          <Route path={INVITE_LINK_PATH} element={<AcceptInvitePage />} />
          <Route path="/settings/organization" element={<OrganizationPageStandIn />} />
        </Routes>
      </LoginModalContext.Provider>
    </AuthContext.Provider>
  );
}

function renderAcceptPage(route: string, { user, loggingIn }: { user?: LoggedInUser; loggingIn?: LoggedInUser }) {
  const opened: LoginModalView[] = [];
  renderWithProviders(<Shell user={user} loggingIn={loggingIn} opened={opened} />, { route });
  return { opened, u: userEvent.setup() };
}

describe('the invite link page', () => {
  it("joins a logged-in user with the link's token, refetches their teams and shows the organisation", async () => {
    const tokens = serveAccept();
    let refetches = 0;
    const user = fakeUser({
      email: 'colleague@example.test',
      refetch: async () => {
        refetches++;
      },
    });
    const { u } = renderAcceptPage(`${INVITE_LINK_PATH}?token=secret-123`, { user });
    expect(screen.getByRole('heading', { name: 'Organisation invitation' })).toBeInTheDocument();
    expect(screen.getByText(/makes your account colleague@example\.test a member/)).toBeInTheDocument();

    await u.click(screen.getByRole('button', { name: 'Accept invitation' }));

    expect(await screen.findByText(`organisation page /settings/organization?org=${ORG}`)).toBeInTheDocument();
    expect(tokens).toEqual(['secret-123']);
    expect(refetches).toBe(1);
  });

  it('takes the token out of the address on arrival and keeps it while a logged-out visitor logs in', async () => {
    window.history.replaceState(null, '', `${INVITE_LINK_PATH}?token=secret-456`);
    keepInviteTokenFromUrl();
    // Page-view tracking and Tag Manager read the address: the secret is no longer in it.
    expect(window.location.pathname + window.location.search).toBe(INVITE_LINK_PATH);

    const tokens = serveAccept();
    const { opened, u } = renderAcceptPage(INVITE_LINK_PATH, { loggingIn: fakeUser() });
    expect(screen.getByText(/Log in, or sign up if you have no account yet/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Accept invitation' })).not.toBeInTheDocument();

    await u.click(screen.getByRole('button', { name: 'Log in' }));
    expect(opened).toEqual(['login']);
    await u.click(await screen.findByRole('button', { name: 'Accept invitation' }));

    expect(await screen.findByText(/organisation page/)).toBeInTheDocument();
    expect(tokens).toEqual(['secret-456']);
  });

  it('offers sign-up too, and keeps the token of a link opened while the address still carries it', async () => {
    const tokens = serveAccept();
    const { opened, u } = renderAcceptPage(`${INVITE_LINK_PATH}?token=secret-789`, { loggingIn: fakeUser() });
    await u.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(opened).toEqual(['signup']);
    await u.click(await screen.findByRole('button', { name: 'Accept invitation' }));
    await screen.findByText(/organisation page/);
    expect(tokens).toEqual(['secret-789']);
  });

  it("explains a used or unknown link with the server's message, asks for a new one and forgets it", async () => {
    window.history.replaceState(null, '', `${INVITE_LINK_PATH}?token=used-token`);
    keepInviteTokenFromUrl();
    serveAccept(404, {
      code: 'invite_link_invalid',
      message: 'This invite link is not valid or has already been used.',
    });
    const { u } = renderAcceptPage(INVITE_LINK_PATH, { user: fakeUser() });
    await u.click(screen.getByRole('button', { name: 'Accept invitation' }));

    expect(await screen.findByText('This invite link is not valid or has already been used.')).toBeInTheDocument();
    expect(screen.getByText('Ask the colleague who invited you to send you a new invitation.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Accept invitation' })).not.toBeInTheDocument();
    await waitFor(() => expect(sessionStorage.length).toBe(0));
  });

  it('tells a member that they already are one and leads to their organisations', async () => {
    serveAccept(409, { code: 'already_member', message: 'You are already a member of this organisation.' });
    const { u } = renderAcceptPage(`${INVITE_LINK_PATH}?token=t`, { user: fakeUser() });
    await u.click(screen.getByRole('button', { name: 'Accept invitation' }));
    expect(await screen.findByText('You are already a member of this organisation.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to your organisations' })).toHaveAttribute(
      'href',
      '/settings/organization',
    );
  });

  it('names the organisation and the inviter before the visitor logs in (issue 32)', async () => {
    const tokens: string[] = [];
    server.use(
      http.post('*/api/invites/preview', async ({ request }) => {
        tokens.push(((await request.json()) as { token: string }).token);
        return HttpResponse.json({ organization: { name: 'Dike Works' }, inviter: 'eva@example.test' });
      }),
    );
    renderAcceptPage(`${INVITE_LINK_PATH}?token=secret-abc`, { loggingIn: fakeUser() });
    expect(await screen.findByTestId('invite-preview')).toHaveTextContent(
      'eva@example.test invited you to join the organisation Dike Works.',
    );
    expect(tokens).toEqual(['secret-abc']);
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
  });

  it('says at once that a revoked link can no longer be used, names nobody and offers no log-in', async () => {
    server.use(
      http.post('*/api/invites/preview', () =>
        HttpResponse.json(
          { code: 'invite_revoked', message: 'This invitation was revoked by the organisation.' },
          { status: 410 },
        ),
      ),
    );
    renderAcceptPage(`${INVITE_LINK_PATH}?token=revoked`, { loggingIn: fakeUser() });
    expect(await screen.findByText('This invitation was revoked by the organisation.')).toBeInTheDocument();
    expect(screen.queryByTestId('invite-preview')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Log in' })).toBeNull();
  });

  it('says what is missing when the page is opened without a link', () => {
    renderAcceptPage(INVITE_LINK_PATH, { user: fakeUser() });
    expect(screen.getByRole('alert')).toHaveTextContent('This page needs the invite link you were sent.');
    expect(screen.queryByRole('button', { name: 'Accept invitation' })).not.toBeInTheDocument();
  });
});
