import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ForgotPasswordForm } from '../../../src/features/auth/ForgotPasswordForm';
import { initTestI18n } from '../support/i18n';
import { renderWithProviders } from '../support/render';
import { FAKE_AUTH, firebaseAuthMock as fb } from './firebase-mock';
import { deferred, en, firebaseError } from './support';

vi.mock('firebase/auth', async () => (await import('./firebase-mock')).firebaseAuthMock);
vi.mock('../../../src/lib/firebase', async () => {
  const { FAKE_AUTH } = await import('./firebase-mock');
  return { firebaseAuth: () => FAKE_AUTH };
});

function setup() {
  const onSwitch = vi.fn();
  renderWithProviders(<ForgotPasswordForm onSwitch={onSwitch} />);
  return {
    user: userEvent.setup(),
    onSwitch,
    email: screen.getByTestId('auth-email'),
    submit: screen.getByTestId('auth-submit'),
    message: () => screen.queryByTestId('auth-message'),
  };
}

beforeAll(initTestI18n);
beforeEach(() => vi.clearAllMocks());

describe('ForgotPasswordForm', () => {
  it('asks for an e-mail (auth.forgotPassword.enterEmail) and sends nothing when it is empty', async () => {
    const f = setup();
    expect(f.submit).toBeEnabled();
    await f.user.click(f.submit);
    // The form's rules load with its first use, here the click (ADR 0093): the message follows them.
    await waitFor(() => expect(f.message()).toHaveTextContent(en.auth.forgotPassword.enterEmail));
    expect(f.message()).toHaveAttribute('data-type', 'error');
    expect(fb.sendPasswordResetEmail).not.toHaveBeenCalled();
  });

  it('sends the reset e-mail, then shows auth.forgotPassword.confirm as info', async () => {
    const sent = deferred();
    fb.sendPasswordResetEmail.mockReturnValue(sent.promise);
    const f = setup();
    await f.user.type(f.email, 'rover@example.com');
    await f.user.click(f.submit);
    expect(fb.sendPasswordResetEmail).toHaveBeenCalledWith(FAKE_AUTH, 'rover@example.com');
    expect(f.submit).toBeDisabled();
    sent.resolve();
    await vi.waitFor(() => expect(f.message()).toHaveTextContent(en.auth.forgotPassword.confirm));
    expect(f.message()).toHaveAttribute('data-type', 'info');
  });

  it("shows the service's error", async () => {
    fb.sendPasswordResetEmail.mockRejectedValue(firebaseError('auth/invalid-email'));
    const f = setup();
    await f.user.type(f.email, 'not-an-address');
    await f.user.click(f.submit);
    await vi.waitFor(() => expect(f.message()).toHaveTextContent(en.auth.errors['invalid-email']));
  });

  it('goes back to log in', async () => {
    const f = setup();
    await f.user.click(screen.getByTestId('auth-to-login'));
    expect(f.onSwitch).toHaveBeenCalledWith('login');
  });
});
