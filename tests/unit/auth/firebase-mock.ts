import { vi } from 'vitest';

/** The firebase/auth functions the auth feature calls, replaced at the module boundary (vi.mock in each test file). */
export const firebaseAuthMock = {
  signInWithEmailAndPassword: vi.fn(),
  createUserWithEmailAndPassword: vi.fn(),
  updateProfile: vi.fn(),
  sendPasswordResetEmail: vi.fn(),
  signInWithRedirect: vi.fn(),
  signOut: vi.fn(),
  getRedirectResult: vi.fn(),
  browserPopupRedirectResolver: { name: 'fake-redirect-resolver' },
  GoogleAuthProvider: class {
    setCustomParameters = vi.fn();
  },
};

export const FAKE_AUTH = { name: 'fake-auth' };
