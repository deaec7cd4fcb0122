import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { StrictMode, useState } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetGoogleRedirectOutcome } from '../../../src/features/auth/auth-actions';
import {
  AuthContext,
  type AuthState,
  type LoggedInUser,
  userInfoQueryKey,
} from '../../../src/features/auth/auth-context';
import { LoginModalProvider } from '../../../src/features/auth/LoginModalProvider';
import { useLoginModal } from '../../../src/features/auth/login-modal-context';
import { initTestI18n } from '../support/i18n';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';
import { firebaseAuthMock as fb } from './firebase-mock';
import { deferred, en } from './support';

vi.mock('firebase/auth', async () => (await import('./firebase-mock')).firebaseAuthMock);
vi.mock('../../../src/lib/firebase', async () => {
  const { FAKE_AUTH } = await import('./firebase-mock');
  return { firebaseAuth: () => FAKE_AUTH };
});

const loggedIn = (isAdmin: boolean | undefined): LoggedInUser => ({
  uid: 'uid-7',
  username: 'Rover',
  teams: isAdmin === undefined ? undefined : [],
  isAdmin,
  refetch: vi.fn(),
  getToken: vi.fn(),
  logout: vi.fn(),
});

let setAuth: (state: AuthState) => void = () => {};
function Harness() {
  const [auth, set] = useState<AuthState>(undefined);
  setAuth = set;
  return (
    <AuthContext.Provider value={auth}>
      <LoginModalProvider>
        <Opener />
      </LoginModalProvider>
    </AuthContext.Provider>
  );
}
function Opener() {
  const modal = useLoginModal();
  return (
    <>
      <button type="button" onClick={() => modal?.open()}>
        open-login
      </button>
      <button type="button" onClick={() => modal?.open('signup')}>
        open-signup
      </button>
    </>
  );
}

beforeAll(initTestI18n);
beforeEach(() => {
  vi.clearAllMocks();
  server.use(http.get('*/api/sign-up', () => HttpResponse.json({ signUp: 'open' })));
  fb.getRedirectResult.mockResolvedValue(null);
  resetGoogleRedirectOutcome();
  window.dataLayer = [];
});
afterEach(() => {
  window.dataLayer = [];
  window.sessionStorage.clear();
});

/** What Firebase leaves in session storage before it sends the page to Google. */
function markRedirectPending() {
  window.sessionStorage.setItem('firebase:pendingRedirect:demo-api-key:[DEFAULT]', '"true"');
}

const modal = () => screen.queryByTestId('login-modal');

describe('LoginModalProvider', () => {
  it('opens on the requested view and toggles between login, sign-up and forgot password', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness />);
    expect(modal()).toBeNull();
    await user.click(screen.getByText('open-signup'));
    // The modal loads with its first opening.
    await screen.findByTestId('signup-form');
    expect(modal()).toHaveAttribute('data-view', 'signup');
    expect(screen.getByRole('dialog')).toHaveAccessibleName(en.auth.register.title);
    await user.click(screen.getByTestId('auth-to-login'));
    expect(modal()).toHaveAttribute('data-view', 'login');
    await user.click(screen.getByTestId('auth-forgot-password'));
    expect(modal()).toHaveAttribute('data-view', 'forgotPassword');
    await user.click(screen.getByTestId('auth-to-login'));
    await user.click(screen.getByTestId('auth-to-signup'));
    expect(modal()).toHaveAttribute('data-view', 'signup');
    await user.keyboard('{Escape}');
    expect(modal()).toBeNull();
  });

  it('closes once the state resolves to a user and the call has finished, then reports the login with the role', async () => {
    const signIn = deferred();
    fb.signInWithEmailAndPassword.mockReturnValue(signIn.promise);
    const user = userEvent.setup();
    const { queryClient } = renderWithProviders(<Harness />);
    await user.click(screen.getByText('open-login'));
    await screen.findByTestId('login-form');
    await user.type(screen.getByTestId('auth-email'), 'rover@example.com');
    await user.type(screen.getByTestId('auth-password'), '12345678');
    await user.click(screen.getByTestId('auth-submit'));
    // Firebase reports the user before its promise settles: the modal waits for the call.
    act(() => setAuth(loggedIn(undefined)));
    expect(modal()).not.toBeNull();
    await act(async () => signIn.resolve());
    await vi.waitFor(() => expect(modal()).toBeNull());
    // The role is known only when GET /api/user has answered.
    expect(window.dataLayer).toEqual([]);
    act(() => {
      queryClient.setQueryData(userInfoQueryKey('uid-7'), {
        teams: [],
        isAdmin: true,
        termsAcceptedAt: '2026-01-01T00:00:00.000Z',
      });
      setAuth(loggedIn(true));
    });
    await vi.waitFor(() => expect(window.dataLayer).toEqual([{ event: 'login', userId: 'uid-7', userRole: 'admin' }]));
  });

  it('reports role user, once, for a non-admin', async () => {
    fb.signInWithEmailAndPassword.mockResolvedValue({});
    const user = userEvent.setup();
    renderWithProviders(<Harness />);
    await user.click(screen.getByText('open-login'));
    await screen.findByTestId('login-form');
    await user.type(screen.getByTestId('auth-email'), 'rover@example.com');
    await user.type(screen.getByTestId('auth-password'), '12345678');
    await user.click(screen.getByTestId('auth-submit'));
    act(() => setAuth(loggedIn(false)));
    await vi.waitFor(() => expect(window.dataLayer).toEqual([{ event: 'login', userId: 'uid-7', userRole: 'user' }]));
    act(() => setAuth({ ...loggedIn(false) }));
    expect(window.dataLayer).toHaveLength(1);
  });

  it('does not report a session restored on page load as a login', async () => {
    renderWithProviders(<Harness />);
    act(() => setAuth(loggedIn(false)));
    await act(async () => {});
    expect(window.dataLayer).toEqual([]);
  });

  it('reports a login when a Google redirect returns with a credential', async () => {
    markRedirectPending();
    fb.getRedirectResult.mockResolvedValue({ user: { uid: 'uid-7' } });
    renderWithProviders(<Harness />);
    act(() => setAuth(loggedIn(false)));
    await vi.waitFor(() => expect(window.dataLayer).toEqual([{ event: 'login', userId: 'uid-7', userRole: 'user' }]));
  });

  it('reads the redirect result once and reports one login under StrictMode (effects run twice)', async () => {
    markRedirectPending();
    fb.getRedirectResult.mockResolvedValue({ user: { uid: 'uid-7' } });
    renderWithProviders(
      <StrictMode>
        <Harness />
      </StrictMode>,
    );
    act(() => setAuth(loggedIn(false)));
    await vi.waitFor(() => expect(window.dataLayer).toEqual([{ event: 'login', userId: 'uid-7', userRole: 'user' }]));
    expect(fb.getRedirectResult).toHaveBeenCalledOnce();
  });

  it('does not ask Firebase for a redirect result when none is on its way', async () => {
    renderWithProviders(<Harness />);
    act(() => setAuth(loggedIn(false)));
    await act(async () => {});
    expect(fb.getRedirectResult).not.toHaveBeenCalled();
  });

  it("opens the login view with the service's message when the Google redirect failed", async () => {
    markRedirectPending();
    fb.getRedirectResult.mockRejectedValue(
      Object.assign(new Error('Firebase: Error (auth/account-exists-with-different-credential).'), {
        code: 'auth/account-exists-with-different-credential',
      }),
    );
    renderWithProviders(<Harness />);
    await vi.waitFor(() => expect(modal()).toHaveAttribute('data-view', 'login'));
    expect(screen.getByTestId('auth-message')).toHaveTextContent(
      en.auth.errors['account-exists-with-different-credential'],
    );
  });
});
