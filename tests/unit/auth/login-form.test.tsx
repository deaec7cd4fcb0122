import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { LoginForm } from '../../../src/features/auth/LoginForm';
import { initTestI18n } from '../support/i18n';
import { renderWithProviders } from '../support/render';
import { FAKE_AUTH, firebaseAuthMock as fb } from './firebase-mock';
import { deferred, en, firebaseError } from './support';

vi.mock('firebase/auth', async () => (await import('./firebase-mock')).firebaseAuthMock);
vi.mock('../../../src/lib/firebase', async () => {
  const { FAKE_AUTH } = await import('./firebase-mock');
  return { firebaseAuth: () => FAKE_AUTH };
});

const msg = en.auth.login.messaging;

function setup() {
  const onSwitch = vi.fn();
  const onSuccess = vi.fn();
  const onBusyChange = vi.fn();
  renderWithProviders(<LoginForm onSwitch={onSwitch} onSuccess={onSuccess} onBusyChange={onBusyChange} />);
  const user = userEvent.setup();
  return {
    user,
    onSwitch,
    onSuccess,
    onBusyChange,
    email: screen.getByTestId('auth-email'),
    password: screen.getByTestId('auth-password'),
    submit: screen.getByTestId('auth-submit'),
    message: () => screen.queryByTestId('auth-message'),
    async fill(email: string, password: string) {
      await user.clear(screen.getByTestId('auth-email'));
      await user.clear(screen.getByTestId('auth-password'));
      if (email) await user.type(screen.getByTestId('auth-email'), email);
      if (password) await user.type(screen.getByTestId('auth-password'), password);
    },
  };
}

beforeAll(initTestI18n);
beforeEach(() => vi.clearAllMocks());

describe('LoginForm: submit button', () => {
  it('is disabled while both fields are empty', () => {
    expect(setup().submit).toBeDisabled();
  });

  it('stays disabled with only the e-mail filled', async () => {
    const f = setup();
    await f.fill('rover@example.com', '');
    expect(f.submit).toBeDisabled();
  });

  it('stays disabled with only the password filled', async () => {
    const f = setup();
    await f.fill('', 'long-enough');
    expect(f.submit).toBeDisabled();
  });

  it('is enabled once both are filled, even before validation', async () => {
    const f = setup();
    await f.fill('x', 'y');
    expect(f.submit).toBeEnabled();
  });
});

describe('LoginForm: validation in the spec order', () => {
  it.each([
    ['no @', 'rover.example.com', 'long-enough'],
    ['no dot after the @', 'rover@example', 'long-enough'],
    ['a space inside', 'ro ver@example.com', 'long-enough'],
    ['an invalid e-mail and a short password (e-mail first)', 'nope', 'short'],
  ])('shows auth.login.messaging.invalidEmail for %s', async (_case, email, password) => {
    const f = setup();
    await f.fill(email, password);
    await f.user.click(f.submit);
    expect(f.message()).toHaveTextContent(msg.invalidEmail);
    expect(f.message()).toHaveAttribute('data-type', 'error');
    expect(fb.signInWithEmailAndPassword).not.toHaveBeenCalled();
  });

  it('shows auth.login.messaging.invalidPassword for a password under 8 characters', async () => {
    const f = setup();
    await f.fill('rover@example.com', '1234567');
    await f.user.click(f.submit);
    expect(f.message()).toHaveTextContent(msg.invalidPassword);
    expect(f.message()).toHaveAttribute('data-type', 'error');
    expect(fb.signInWithEmailAndPassword).not.toHaveBeenCalled();
  });

  it('accepts exactly 8 characters, shows the info message while logging in, then reports success', async () => {
    const call = deferred();
    fb.signInWithEmailAndPassword.mockReturnValue(call.promise);
    const f = setup();
    await f.fill('rover@example.com', '12345678');
    await f.user.click(f.submit);
    expect(fb.signInWithEmailAndPassword).toHaveBeenCalledWith(FAKE_AUTH, 'rover@example.com', '12345678');
    expect(f.message()).toHaveTextContent(msg.loggingIn);
    expect(f.message()).toHaveAttribute('data-type', 'info');
    expect(f.submit).toBeDisabled();
    expect(f.onBusyChange).toHaveBeenLastCalledWith(true);
    call.resolve();
    await vi.waitFor(() => expect(f.onSuccess).toHaveBeenCalledOnce());
    expect(f.onBusyChange).toHaveBeenLastCalledWith(false);
  });
});

describe('LoginForm: authentication service errors', () => {
  it('maps a known Firebase code to a readable sentence', async () => {
    fb.signInWithEmailAndPassword.mockRejectedValue(firebaseError('auth/invalid-credential'));
    const f = setup();
    await f.fill('rover@example.com', 'wrong-password');
    await f.user.click(f.submit);
    await vi.waitFor(() => expect(f.message()).toHaveTextContent(en.auth.errors['invalid-credential']));
    expect(f.message()).toHaveAttribute('data-type', 'error');
    expect(f.message()).toHaveAttribute('data-code', 'auth/invalid-credential');
    expect(f.onSuccess).not.toHaveBeenCalled();
    expect(f.submit).toBeEnabled();
  });

  it("shows the service's own message for a code without a mapping", async () => {
    fb.signInWithEmailAndPassword.mockRejectedValue(
      firebaseError('auth/quota-exceeded', 'Exceeded quota for verifying passwords.'),
    );
    const f = setup();
    await f.fill('rover@example.com', 'long-enough');
    await f.user.click(f.submit);
    await vi.waitFor(() => expect(f.message()).toHaveTextContent('Exceeded quota for verifying passwords.'));
  });

  it("shows the thrown message when there is no code (e.g. 'Authentication object is not initialized.')", async () => {
    fb.signInWithEmailAndPassword.mockRejectedValue(new Error('Authentication object is not initialized.'));
    const f = setup();
    await f.fill('rover@example.com', 'long-enough');
    await f.user.click(f.submit);
    await vi.waitFor(() => expect(f.message()).toHaveTextContent('Authentication object is not initialized.'));
  });
});

describe('LoginForm: links', () => {
  it('switches to sign-up and to forgot password', async () => {
    const f = setup();
    await f.user.click(screen.getByTestId('auth-to-signup'));
    expect(f.onSwitch).toHaveBeenLastCalledWith('signup');
    await f.user.click(screen.getByTestId('auth-forgot-password'));
    expect(f.onSwitch).toHaveBeenLastCalledWith('forgotPassword');
  });

  it('starts Google sign-in by redirect', async () => {
    fb.signInWithRedirect.mockReturnValue(new Promise(() => {}));
    const f = setup();
    await f.user.click(screen.getByTestId('auth-google'));
    expect(fb.signInWithRedirect).toHaveBeenCalledWith(
      FAKE_AUTH,
      expect.any(fb.GoogleAuthProvider),
      fb.browserPopupRedirectResolver,
    );
    expect(f.message()).toHaveTextContent(en.auth.redirectingToGoogle);
  });
});
