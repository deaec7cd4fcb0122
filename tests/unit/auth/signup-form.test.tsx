import type { SignUpPolicy } from '@portal/contract';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { userInfoQueryKey } from '../../../src/features/auth/auth-context';
import { SignUpForm } from '../../../src/features/auth/SignUpForm';
import { hasTermsIntent } from '../../../src/features/auth/terms-intent';
import { initTestI18n } from '../support/i18n';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';
import { FAKE_AUTH, firebaseAuthMock as fb } from './firebase-mock';
import { deferred, en, firebaseError } from './support';

vi.mock('firebase/auth', async () => (await import('./firebase-mock')).firebaseAuthMock);
vi.mock('../../../src/lib/firebase', async () => {
  const { FAKE_AUTH } = await import('./firebase-mock');
  return { firebaseAuth: () => FAKE_AUTH };
});

const msg = en.auth.register.messaging;
type Fields = { email: string; username: string; password: string; confirm: string; terms: boolean };
const good: Fields = {
  email: 'rover@example.com',
  username: 'rov',
  password: '12345678',
  confirm: '12345678',
  terms: true,
};

function setup() {
  const onSwitch = vi.fn();
  const onSuccess = vi.fn();
  const { queryClient } = renderWithProviders(<SignUpForm onSwitch={onSwitch} onSuccess={onSuccess} />);
  const user = userEvent.setup();
  const submit = screen.getByTestId('auth-submit');
  return {
    user,
    queryClient,
    onSwitch,
    onSuccess,
    submit,
    message: () => screen.queryByTestId('auth-message'),
    async fill(values: Partial<Fields>) {
      const v = { email: '', username: '', password: '', confirm: '', terms: false, ...values };
      const inputs: Array<[string, string]> = [
        ['auth-email', v.email],
        ['auth-username', v.username],
        ['auth-password', v.password],
        ['auth-confirm-password', v.confirm],
      ];
      for (const [id, value] of inputs) {
        const input = screen.getByTestId(id);
        await user.clear(input);
        if (value) await user.type(input, value);
      }
      const box = screen.getByTestId('auth-terms') as HTMLInputElement;
      if (box.checked !== v.terms) await user.click(box);
    },
    async submitWith(values: Partial<Fields>) {
      await this.fill(values);
      await user.click(submit);
    },
  };
}

/** The calls the form made to the portal's server and to Firebase, in order. */
const calls: string[] = [];
const answerPolicy = (policy: SignUpPolicy) =>
  server.use(
    http.get('*/api/sign-up', () => {
      calls.push('GET /sign-up');
      return HttpResponse.json(policy);
    }),
  );
const acceptedAt = '2026-11-23T19:30:00.000Z';

beforeAll(initTestI18n);
beforeEach(() => {
  vi.clearAllMocks();
  sessionStorage.clear();
  calls.length = 0;
  answerPolicy({ signUp: 'open' });
  server.use(
    http.post('*/api/user/terms', () => {
      calls.push('POST /user/terms');
      return HttpResponse.json({ termsAcceptedAt: acceptedAt });
    }),
    http.get('*/api/user', () => {
      calls.push('GET /user');
      return HttpResponse.json({ teams: [], isAdmin: false, termsAcceptedAt: acceptedAt });
    }),
  );
});

describe('SignUpForm: submit button', () => {
  it('is disabled on an empty form', () => {
    expect(setup().submit).toBeDisabled();
  });

  it.each([
    ['the e-mail', { email: '' }],
    ['the username', { username: '' }],
    ['the password', { password: '' }],
    ['the confirmation', { confirm: '' }],
    ['the terms box', { terms: false }],
  ])('stays disabled without %s', async (_name, missing) => {
    const f = setup();
    await f.fill({ ...good, ...missing });
    expect(f.submit).toBeDisabled();
  });

  it('is enabled with all four fields filled and the box ticked, before validation', async () => {
    const f = setup();
    await f.fill({ email: 'x', username: 'y', password: 'z', confirm: 'w', terms: true });
    expect(f.submit).toBeEnabled();
  });

  it("links the terms box to the portal's published terms, in a new tab", () => {
    setup();
    const link = screen.getByRole('link', { name: /terms and conditions/i });
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('href', '/legal/terms');
  });
});

describe('SignUpForm: validation in the spec order', () => {
  it.each([
    ['every field wrong', { email: 'nope', username: 'ab', password: '123', confirm: 'x' }, msg.invalidEmail],
    ['an e-mail without a domain dot', { email: 'rover@example' }, msg.invalidEmail],
    [
      'a short username, short and mismatching passwords',
      { username: 'ab', password: '1234567', confirm: 'x' },
      msg.shortUsername,
    ],
    ['a short password that also mismatches', { password: '1234567', confirm: '7654321' }, msg.shortPassword],
    ['a short password that matches', { password: '1234567', confirm: '1234567' }, msg.shortPassword],
    ['a confirmation that differs', { confirm: '12345679' }, msg.passwordMismatch],
  ])('%s shows that message and calls nothing', async (_name, change, text) => {
    const f = setup();
    await f.submitWith({ ...good, ...change });
    expect(f.message()).toHaveTextContent(text);
    expect(f.message()).toHaveAttribute('data-type', 'error');
    expect(fb.createUserWithEmailAndPassword).not.toHaveBeenCalled();
  });
});

describe('SignUpForm: creating the account', () => {
  it('creates the Firebase account, sets the display name, records the terms, then asks the server', async () => {
    const created = deferred<unknown>();
    const firebaseUser = {
      uid: 'uid-1',
      getIdToken: vi.fn(async () => {
        calls.push('getIdToken');
        return 'token';
      }),
    };
    fb.createUserWithEmailAndPassword.mockReturnValue(created.promise);
    fb.updateProfile.mockImplementation(async () => {
      calls.push('updateProfile');
    });
    const f = setup();
    await f.submitWith({ ...good, username: 'Rover Owner' });
    expect(f.message()).toHaveTextContent(msg.registering);
    expect(f.message()).toHaveAttribute('data-type', 'info');
    expect(f.submit).toBeDisabled();
    created.resolve({ user: firebaseUser });
    await vi.waitFor(() => expect(f.onSuccess).toHaveBeenCalledOnce());
    expect(fb.createUserWithEmailAndPassword).toHaveBeenCalledWith(FAKE_AUTH, good.email, good.password);
    expect(fb.updateProfile).toHaveBeenCalledWith(firebaseUser, { displayName: 'Rover Owner' });
    expect(firebaseUser.getIdToken).toHaveBeenCalledWith(true);
    const account = calls.filter((c) => c !== 'GET /sign-up');
    expect(account.slice(0, 2)).toEqual(expect.arrayContaining(['updateProfile', 'getIdToken']));
    expect(account.slice(2)).toEqual(['POST /user/terms', 'GET /user']);
    expect(f.queryClient.getQueryData(userInfoQueryKey('uid-1'))).toEqual({
      teams: [],
      isAdmin: false,
      termsAcceptedAt: acceptedAt,
    });
  });

  it('maps an existing account to a readable sentence', async () => {
    fb.createUserWithEmailAndPassword.mockRejectedValue(firebaseError('auth/email-already-in-use'));
    const f = setup();
    await f.submitWith(good);
    await vi.waitFor(() => expect(f.message()).toHaveTextContent(en.auth.errors['email-already-in-use']));
    expect(f.message()).toHaveAttribute('data-type', 'error');
    expect(f.onSuccess).not.toHaveBeenCalled();
    expect(calls).not.toContain('POST /user/terms');
  });

  it('signs up with Google only once the terms box is ticked, as the e-mail form does', async () => {
    fb.signInWithRedirect.mockReturnValue(new Promise(() => {}));
    const f = setup();
    const google = screen.getByTestId('auth-google');
    expect(google).toBeDisabled();
    await f.user.click(google);
    expect(fb.signInWithRedirect).not.toHaveBeenCalled();
    expect(hasTermsIntent()).toBe(false);

    await f.user.click(screen.getByTestId('auth-terms'));
    expect(google).toBeEnabled();
    await f.user.click(google);
    expect(fb.signInWithRedirect).toHaveBeenCalledWith(
      FAKE_AUTH,
      expect.any(fb.GoogleAuthProvider),
      fb.browserPopupRedirectResolver,
    );
    expect(f.message()).toHaveTextContent(en.auth.redirectingToGoogle);
    // Remembered across the redirect, for the TermsGate to record once the account is back.
    expect(hasTermsIntent()).toBe(true);
  });

  it('forgets the ticked box when the redirect cannot start', async () => {
    fb.signInWithRedirect.mockRejectedValue(firebaseError('auth/network-request-failed'));
    const f = setup();
    await f.user.click(screen.getByTestId('auth-terms'));
    await f.user.click(screen.getByTestId('auth-google'));
    await vi.waitFor(() => expect(f.message()).toHaveAttribute('data-type', 'error'));
    expect(hasTermsIntent()).toBe(false);
  });

  it('says so when sign-up is by invitation only', async () => {
    answerPolicy({ signUp: 'invite-only' });
    setup();
    expect(await screen.findByTestId('signup-invite-only')).toHaveTextContent(en.auth.register.messaging.inviteOnly);
  });

  it('shows no invitation notice while sign-up is open', async () => {
    setup();
    await vi.waitFor(() => expect(calls).toContain('GET /sign-up'));
    expect(screen.queryByTestId('signup-invite-only')).not.toBeInTheDocument();
  });

  it('signs a refused newcomer out again and tells them sign-up needs an invitation', async () => {
    const firebaseUser = { uid: 'uid-2', getIdToken: vi.fn().mockResolvedValue('token') };
    fb.createUserWithEmailAndPassword.mockResolvedValue({ user: firebaseUser });
    fb.updateProfile.mockResolvedValue(undefined);
    server.use(
      http.post('*/api/user/terms', () =>
        HttpResponse.json({ code: 'sign_up_invite_only', message: 'Sign-up is by invitation only.' }, { status: 403 }),
      ),
    );
    const f = setup();
    await f.submitWith(good);
    await vi.waitFor(() => expect(f.message()).toHaveTextContent(en.auth.errors.signUpInviteOnly));
    expect(fb.signOut).toHaveBeenCalledWith(FAKE_AUTH);
    expect(f.onSuccess).not.toHaveBeenCalled();
    expect(calls).not.toContain('GET /user');
  });

  it('switches back to log in', async () => {
    const f = setup();
    await f.user.click(screen.getByTestId('auth-to-login'));
    expect(f.onSwitch).toHaveBeenCalledWith('login');
  });
});
