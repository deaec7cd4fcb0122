import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { LoginForm } from '../../../src/features/auth/LoginForm';
import { SignUpForm } from '../../../src/features/auth/SignUpForm';
import { initTestI18n } from '../support/i18n';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

// Counts the loads of Firebase Auth: the mock's factory runs when the module is first imported.
const firebase = vi.hoisted(() => ({ loads: 0 }));
vi.mock('firebase/auth', async () => {
  firebase.loads++;
  return (await import('./firebase-mock')).firebaseAuthMock;
});
vi.mock('../../../src/lib/firebase', async () => {
  const { FAKE_AUTH } = await import('./firebase-mock');
  return { firebaseAuth: () => FAKE_AUTH };
});

beforeAll(initTestI18n);
beforeEach(() => server.use(http.get('*/api/sign-up', () => HttpResponse.json({ signUp: 'open' }))));

// ADR 0039: on /signup and /login the form draws without Firebase, a phone's long task; it comes with the first use.
// Firebase loads once per test file, so one test follows it.
it('the log-in and sign-up forms draw without Firebase Auth, which loads at the first key or tap', async () => {
  const login = renderWithProviders(<LoginForm onSwitch={vi.fn()} />);
  await screen.findByTestId('auth-password');
  login.unmount();
  renderWithProviders(<SignUpForm onSwitch={vi.fn()} />);
  await screen.findByTestId('auth-confirm-password');
  expect(firebase.loads).toBe(0);
  await userEvent.setup().type(screen.getByTestId('auth-email'), 'r');
  await waitFor(() => expect(firebase.loads).toBe(1));
});
