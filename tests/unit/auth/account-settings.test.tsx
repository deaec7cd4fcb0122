import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthContext } from '../../../src/features/auth/auth-context';
import { AccountSettingsPage } from '../../../src/features/settings/AccountSettingsPage';
import { fakeUser } from '../support/factories';
import { initTestI18n } from '../support/i18n';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';
import { en, firebaseError } from './support';

const fb = vi.hoisted(() => ({
  currentUser: {
    email: 'rover@example.com',
    providerData: [{ providerId: 'password' }],
    getIdToken: vi.fn(async () => 'token'),
  },
  updateProfile: vi.fn(async () => {}),
  reauthenticateWithCredential: vi.fn(async () => {}),
  updatePassword: vi.fn(async () => {}),
  signOut: vi.fn(async () => {}),
}));
vi.mock('firebase/auth', () => ({
  EmailAuthProvider: { credential: (email: string, password: string) => ({ email, password }) },
  reauthenticateWithCredential: fb.reauthenticateWithCredential,
  updatePassword: fb.updatePassword,
  updateProfile: fb.updateProfile,
  signOut: fb.signOut,
}));
vi.mock('../../../src/lib/firebase', () => ({ firebaseAuth: () => ({ currentUser: fb.currentUser }) }));
vi.mock('../../../src/lib/page-meta', () => ({ usePageMeta: () => {} }));

const calls: string[] = [];
beforeEach(() =>
  server.use(
    // The page's API keys section lists the user's keys.
    http.get('*/api/api-keys', () => HttpResponse.json({ items: [] })),
    // And its webhooks section, the user's webhook endpoints.
    http.get('*/api/webhooks', () => HttpResponse.json({ items: [] })),
    http.post('*/api/user/photo', async ({ request }) => {
      calls.push(`POST photo ${request.headers.get('content-type')}`);
      return HttpResponse.json({ photoURL: 'http://localhost/api/users/u1/photo?v=abc' });
    }),
    // The page's notifications section (tests/unit/mail) asks for its settings.
    http.get('*/api/user/notifications', () =>
      HttpResponse.json({
        locale: 'en',
        accessEnding: true,
        lowBalance: true,
        lowBalanceThreshold: 10,
        renewalFailed: true,
        rinexReady: true,
        membership: true,
        stationAlerts: true,
      }),
    ),
    http.delete('*/api/user', () => {
      calls.push('DELETE user');
      return new HttpResponse(null, { status: 204 });
    }),
  ),
);

const s = en.settings;
const user = fakeUser({
  uid: 'uid-1',
  username: 'Rover',
  email: 'rover@example.com',
  refetch: vi.fn(async () => {}),
  getToken: vi.fn(),
  logout: vi.fn(),
});

function setup() {
  renderWithProviders(
    <AuthContext.Provider value={user}>
      <AccountSettingsPage />
    </AuthContext.Provider>,
  );
  return userEvent.setup();
}

beforeAll(async () => {
  await initTestI18n();
});
beforeEach(() => {
  vi.clearAllMocks();
  calls.length = 0;
});

describe('AccountSettingsPage: profile', () => {
  it('shows the e-mail read-only and saves a new display name through Firebase, then refreshes the user', async () => {
    const u = setup();
    expect(screen.getByTestId('settings-email')).toHaveValue('rover@example.com');
    expect(screen.getByTestId('settings-email')).toHaveAttribute('readonly');
    await u.clear(screen.getByTestId('settings-display-name'));
    await u.type(screen.getByTestId('settings-display-name'), 'New Name');
    await u.click(screen.getByTestId('settings-save-profile'));
    await screen.findByText(s.profile.saved);
    expect(fb.updateProfile).toHaveBeenCalledWith(fb.currentUser, { displayName: 'New Name' });
    expect(user.refetch).toHaveBeenCalled();
  });

  it('refuses a display name under 3 characters and a photo address that is not http(s)', async () => {
    const u = setup();
    await u.clear(screen.getByTestId('settings-display-name'));
    await u.type(screen.getByTestId('settings-display-name'), 'ab');
    await u.click(screen.getByTestId('settings-save-profile'));
    expect(screen.getByText(s.profile.invalidName)).toBeInTheDocument();
    await u.type(screen.getByTestId('settings-display-name'), 'c');
    await u.type(screen.getByTestId('settings-photo-url'), 'javascript:alert(1)');
    await u.click(screen.getByTestId('settings-save-profile'));
    expect(screen.getByText(s.profile.invalidUrl)).toBeInTheDocument();
    expect(fb.updateProfile).not.toHaveBeenCalled();
  });

  it('uploads a chosen image to the server and stores the served address as the photo', async () => {
    const u = setup();
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'me.png', { type: 'image/png' });
    await u.upload(screen.getByTestId('photo-file'), file);
    await screen.findByText(s.profile.saved);
    expect(calls).toEqual(['POST photo image/png']);
    expect(fb.updateProfile).toHaveBeenCalledWith(fb.currentUser, {
      photoURL: 'http://localhost/api/users/u1/photo?v=abc',
    });
  });

  it('refuses other file types and files over 512 KB before uploading', async () => {
    const u = userEvent.setup({ applyAccept: false });
    setup();
    await u.upload(screen.getByTestId('photo-file'), new File(['<svg/>'], 'x.svg', { type: 'image/svg+xml' }));
    expect(screen.getByText(s.profile.wrongType)).toBeInTheDocument();
    await u.upload(
      screen.getByTestId('photo-file'),
      new File([new Uint8Array(600 * 1024)], 'big.png', { type: 'image/png' }),
    );
    expect(screen.getByText(s.profile.tooLarge)).toBeInTheDocument();
    expect(calls).toEqual([]);
  });
});

describe('AccountSettingsPage: password', () => {
  it('checks the new password, re-authenticates with the current one, then changes it', async () => {
    const u = setup();
    const form = within(screen.getByTestId('password-form'));
    const submit = screen.getByTestId('settings-change-password');
    expect(submit).toBeDisabled();
    await u.type(screen.getByTestId('settings-current-password'), 'old-password');
    await u.type(screen.getByTestId('settings-new-password'), 'short');
    await u.type(screen.getByTestId('settings-confirm-password'), 'short');
    await u.click(submit);
    expect(form.getByText(en.auth.register.messaging.shortPassword)).toBeInTheDocument();
    await u.type(screen.getByTestId('settings-new-password'), '-but-longer');
    await u.click(submit);
    expect(form.getByText(en.auth.register.messaging.passwordMismatch)).toBeInTheDocument();
    await u.type(screen.getByTestId('settings-confirm-password'), '-but-longer');
    await u.click(submit);
    await form.findByText(s.password.changed);
    expect(fb.reauthenticateWithCredential).toHaveBeenCalledWith(fb.currentUser, {
      email: 'rover@example.com',
      password: 'old-password',
    });
    expect(fb.updatePassword).toHaveBeenCalledWith(fb.currentUser, 'short-but-longer');
  });

  it('shows a wrong current password as the mapped Firebase error', async () => {
    fb.reauthenticateWithCredential.mockRejectedValueOnce(firebaseError('auth/invalid-credential'));
    const u = setup();
    await u.type(screen.getByTestId('settings-current-password'), 'nope-nope');
    await u.type(screen.getByTestId('settings-new-password'), 'long-enough');
    await u.type(screen.getByTestId('settings-confirm-password'), 'long-enough');
    await u.click(screen.getByTestId('settings-change-password'));
    await within(screen.getByTestId('password-form')).findByText(en.auth.errors['invalid-credential']);
    expect(fb.updatePassword).not.toHaveBeenCalled();
  });
});

describe('AccountSettingsPage: delete account', () => {
  it('needs the password and the typed confirmation, re-authenticates, calls DELETE /api/user and signs out', async () => {
    const u = setup();
    await u.click(screen.getByTestId('settings-delete-account'));
    const confirm = screen.getByTestId('delete-confirm');
    expect(confirm).toBeDisabled();
    await u.type(screen.getByTestId('delete-confirm-word'), 'DELETE');
    expect(confirm).toBeDisabled();
    await u.type(screen.getByTestId('delete-password'), 'my-password');
    expect(confirm).toBeEnabled();
    await u.click(confirm);
    await vi.waitFor(() => expect(fb.signOut).toHaveBeenCalled());
    expect(fb.reauthenticateWithCredential).toHaveBeenCalledWith(fb.currentUser, {
      email: 'rover@example.com',
      password: 'my-password',
    });
    expect(calls).toEqual(['DELETE user']);
  });
});
