import {
  createUserWithEmailAndPassword,
  GoogleAuthProvider,
  getRedirectResult,
  sendPasswordResetEmail,
  signInWithEmailAndPassword,
  signInWithRedirect,
  type UserCredential,
  updateProfile,
} from 'firebase/auth';
import { firebaseAuth } from '../../lib/firebase';
import { fetchUserInfo } from './user-info.api';

/** Signs in with e-mail and password (Firebase Authentication). */
export async function logInWithEmail(email: string, password: string): Promise<UserCredential> {
  return signInWithEmailAndPassword(firebaseAuth(), email.trim(), password);
}

/**
 * Creates the Firebase account, sets its display name to the username, then asks the server for the user
 * (GET /api/user creates the users row) with a fresh token that carries the name.
 */
export async function signUpWithEmail(input: { email: string; username: string; password: string }) {
  const credential = await createUserWithEmailAndPassword(firebaseAuth(), input.email.trim(), input.password);
  await updateProfile(credential.user, { displayName: input.username.trim() });
  await credential.user.getIdToken(true);
  return { credential, userInfo: await fetchUserInfo() };
}

/** Sends Firebase's password-reset e-mail. */
export async function sendPasswordReset(email: string): Promise<void> {
  await sendPasswordResetEmail(firebaseAuth(), email.trim());
}

/** Leaves the page for Google's (or the Auth Emulator's) account chooser; the result is read on return. */
export async function startGoogleRedirect(): Promise<void> {
  const provider = new GoogleAuthProvider();
  provider.setCustomParameters({ prompt: 'select_account' });
  await signInWithRedirect(firebaseAuth(), provider);
}

/** The credential of a Google redirect that just returned to the app, or null when there was none. */
export async function completeGoogleRedirect(): Promise<UserCredential | null> {
  return getRedirectResult(firebaseAuth());
}
