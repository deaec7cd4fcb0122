import type { UserInfo } from '@portal/contract';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetGoogleRedirectOutcome } from '../../../src/features/auth/auth-actions';
import { AuthContext, type AuthState, userInfoQueryKey } from '../../../src/features/auth/auth-context';
import { LoginModalProvider } from '../../../src/features/auth/LoginModalProvider';
import { useLoginModal } from '../../../src/features/auth/login-modal-context';
import { hasTermsIntent, rememberTermsIntent } from '../../../src/features/auth/terms-intent';
import { fakeUser } from '../support/factories';
import { initTestI18n } from '../support/i18n';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';
import { firebaseAuthMock as fb } from './firebase-mock';
import { en } from './support';

vi.mock('firebase/auth', async () => (await import('./firebase-mock')).firebaseAuthMock);
vi.mock('../../../src/lib/firebase', async () => {
  const { FAKE_AUTH } = await import('./firebase-mock');
  return { firebaseAuth: () => FAKE_AUTH };
});

const ACCEPTED_AT = '2026-11-23T19:30:00.000Z';
let termsStatus = 200;
const termsCalls: unknown[] = [];
beforeEach(() =>
  server.use(
    http.post('*/api/user/terms', async ({ request }) => {
      termsCalls.push(await request.json());
      return termsStatus === 200
        ? HttpResponse.json({ termsAcceptedAt: ACCEPTED_AT })
        : HttpResponse.json({ code: 'internal', message: 'down' }, { status: termsStatus });
    }),
  ),
);

const logout = vi.fn(async () => {});
const rover = fakeUser({ uid: 'uid-9', username: 'Rover', refetch: vi.fn(), getToken: vi.fn(), logout });

function Opener() {
  const modal = useLoginModal();
  return (
    <button type="button" onClick={() => modal?.open()}>
      open-login
    </button>
  );
}

function Harness({ auth }: { auth: AuthState }) {
  return (
    <AuthContext.Provider value={auth}>
      <LoginModalProvider>
        {auth && <p>the app</p>}
        <Opener />
      </LoginModalProvider>
    </AuthContext.Provider>
  );
}

function renderGate(termsAcceptedAt: string | null | undefined) {
  const rendered = renderWithProviders(<Harness auth={rover} />);
  if (termsAcceptedAt !== undefined) {
    rendered.queryClient.setQueryData<UserInfo>(userInfoQueryKey(rover.uid), {
      teams: [],
      isAdmin: false,
      termsAcceptedAt,
    });
  }
  return { ...rendered, cached: () => rendered.queryClient.getQueryData<UserInfo>(userInfoQueryKey(rover.uid)) };
}

const dialog = () => screen.queryByTestId('terms-dialog');
const t = en.auth.terms;

beforeAll(async () => {
  await initTestI18n();
});
beforeEach(() => {
  vi.clearAllMocks();
  fb.getRedirectResult.mockResolvedValue(null);
  resetGoogleRedirectOutcome();
  sessionStorage.clear();
  termsStatus = 200;
  termsCalls.length = 0;
});

describe('TermsGate', () => {
  it('shows the app to a user who accepted the terms', async () => {
    renderGate('2025-01-01T00:00:00.000Z');
    expect(await screen.findByText('the app')).toBeInTheDocument();
    expect(dialog()).toBeNull();
  });

  it('shows the app while the user info is still unknown', () => {
    renderGate(undefined);
    expect(screen.getByText('the app')).toBeInTheDocument();
    expect(dialog()).toBeNull();
  });

  it('blocks a user without an acceptance until the box is ticked and Continue records it', async () => {
    const user = userEvent.setup();
    const { cached } = renderGate(null);
    expect(await screen.findByTestId('terms-dialog')).toBeInTheDocument();
    expect(screen.queryByText('the app')).toBeNull();
    expect(screen.getByRole('dialog')).toHaveAccessibleName(t.title);
    expect(screen.getByText(t.explanation.replace('{{product}}', 'Meridian RTK'))).toBeInTheDocument();
    const link = screen.getByRole('link', { name: /terms and conditions/i });
    expect(link).toHaveAttribute('target', '_blank');
    expect(screen.queryByRole('button', { name: /close/i })).toBeNull();

    const proceed = screen.getByRole('button', { name: t.continue });
    expect(proceed).toBeDisabled();
    await user.keyboard('{Escape}');
    expect(dialog()).toBeInTheDocument();

    await user.click(screen.getByTestId('terms-dialog-box'));
    expect(proceed).toBeEnabled();
    await user.click(proceed);
    expect(await screen.findByText('the app')).toBeInTheDocument();
    expect(dialog()).toBeNull();
    expect(termsCalls).toEqual([{ accepted: true }]);
    expect(cached()?.termsAcceptedAt).toBe(ACCEPTED_AT);
  });

  it('logs out from the dialog without recording anything', async () => {
    const user = userEvent.setup();
    renderGate(null);
    await user.click(await screen.findByRole('button', { name: t.logout }));
    expect(logout).toHaveBeenCalledOnce();
    expect(termsCalls).toEqual([]);
  });

  it('keeps the dialog and says so when the acceptance cannot be saved', async () => {
    termsStatus = 500;
    const user = userEvent.setup();
    renderGate(null);
    await user.click(await screen.findByTestId('terms-dialog-box'));
    await user.click(screen.getByRole('button', { name: t.continue }));
    expect(await screen.findByRole('alert')).toHaveTextContent(t.failed);
    expect(dialog()).toBeInTheDocument();
    expect(screen.queryByText('the app')).toBeNull();
  });

  it('records the box ticked before a Google sign-up without asking, then forgets it', async () => {
    rememberTermsIntent();
    const { cached } = renderGate(null);
    await vi.waitFor(() => expect(cached()?.termsAcceptedAt).toBe(ACCEPTED_AT));
    expect(await screen.findByText('the app')).toBeInTheDocument();
    expect(termsCalls).toEqual([{ accepted: true }]);
    expect(dialog()).toBeNull();
    expect(cached()?.termsAcceptedAt).toBe(ACCEPTED_AT);
    expect(hasTermsIntent()).toBe(false);
  });

  it('asks after all when recording a remembered box fails', async () => {
    termsStatus = 500;
    rememberTermsIntent();
    renderGate(null);
    expect(await screen.findByRole('alert')).toHaveTextContent(t.failed);
    expect(dialog()).toBeInTheDocument();
    expect(screen.getByRole('button', { name: t.continue })).toBeDisabled();
    expect(hasTermsIntent()).toBe(false);
  });

  it('does not count a remembered box for a Google log-in from the log-in view', async () => {
    fb.signInWithRedirect.mockReturnValue(new Promise(() => {}));
    rememberTermsIntent();
    const user = userEvent.setup();
    renderWithProviders(<Harness auth={undefined} />);
    await user.click(screen.getByText('open-login'));
    await user.click(await screen.findByTestId('auth-google'));
    expect(fb.signInWithRedirect).toHaveBeenCalledOnce();
    expect(hasTermsIntent()).toBe(false);
  });
});
