import { SIGN_UP_INVITE_ONLY } from '@portal/contract/invite-link';
import {
  browserPopupRedirectResolver,
  createUserWithEmailAndPassword,
  GoogleAuthProvider,
  getRedirectResult,
  sendEmailVerification,
  sendPasswordResetEmail,
  signInWithEmailAndPassword,
  signInWithRedirect,
  signOut,
  type UserCredential,
  updateProfile,
} from 'firebase/auth';
import { apiError } from '../../lib/api-error';
import { firebaseAuth } from '../../lib/firebase';
import { acceptTerms } from './terms.api';
import { fetchUserInfo } from './user-info.api';

/** Signs in with e-mail and password (Firebase Authentication). */
export async function logInWithEmail(email: string, password: string): Promise<UserCredential> {
  return signInWithEmailAndPassword(firebaseAuth(), email.trim(), password);
}

/**
 * Creates the Firebase account, sets its display name to the username, records the terms the form required
 * (POST /api/user/terms), then asks the server for the user with a fresh token that carries the name. A portal
 * whose sign-up is invite-only may refuse the new account: it is signed out again, and can log in once invited.
 */
export async function signUpWithEmail(input: { email: string; username: string; password: string }) {
  const credential = await createUserWithEmailAndPassword(firebaseAuth(), input.email.trim(), input.password);
  await updateProfile(credential.user, { displayName: input.username.trim() });
  await credential.user.getIdToken(true);
  try {
    await acceptTerms();
  } catch (error) {
    if (apiError(error)?.code === SIGN_UP_INVITE_ONLY) await signOut(firebaseAuth());
    throw error;
  }
  return { credential, userInfo: await fetchUserInfo() };
}

/** Sends Firebase's password-reset e-mail. */
export async function sendPasswordReset(email: string): Promise<void> {
  await sendPasswordResetEmail(firebaseAuth(), email.trim());
}

/**
 * Sends Firebase's verification e-mail to the signed-in user. Its page offers a way back to `continueUrl` (an
 * authorised domain, as the portal's own must be for Google sign-in).
 */
export async function sendVerificationEmail(continueUrl: string): Promise<void> {
  const user = firebaseAuth().currentUser;
  if (!user) throw new Error('User is not logged in');
  await sendEmailVerification(user, { url: continueUrl });
}

/** Leaves the page for Google's (or the Auth Emulator's) account chooser; the result is read on return. */
export async function startGoogleRedirect(): Promise<void> {
  const provider = new GoogleAuthProvider();
  provider.setCustomParameters({ prompt: 'select_account' });
  await signInWithRedirect(firebaseAuth(), provider, browserPopupRedirectResolver);
}

export type RedirectOutcome =
  | { kind: 'none' }
  | { kind: 'signedIn'; credential: UserCredential }
  | { kind: 'failed'; error: unknown };

let redirectOutcome: Promise<RedirectOutcome> | undefined;

/** Firebase marks a Google redirect on its way in session storage before it leaves the page. */
function redirectPending(): boolean {
  try {
    return Object.keys(window.sessionStorage).some((key) => key.startsWith('firebase:pendingRedirect:'));
  } catch {
    return true;
  }
}

/**
 * Without a Firebase configuration no redirect can be pending: nothing to report, nothing to throw at start. Nor
 * without Firebase's mark, and then Google's redirect helper (a script from another origin) is not loaded either.
 */
async function pendingRedirectResult(): Promise<UserCredential | null> {
  if (!redirectPending()) return null;
  let auth: ReturnType<typeof firebaseAuth>;
  try {
    auth = firebaseAuth();
  } catch {
    return null;
  }
  return getRedirectResult(auth, browserPopupRedirectResolver);
}
let redirectClaimed = false;

/**
 * The outcome of a Google redirect that just returned to the app. Firebase hands the result out only once per page
 * load, and React may mount the caller twice (StrictMode, remounts), so the call is made once per page load and
 * `claim()` answers true for exactly one caller: only that one reports the login or shows the error.
 */
export async function completeGoogleRedirect(): Promise<RedirectOutcome & { claim(): boolean }> {
  redirectOutcome ??= pendingRedirectResult().then(
    (credential): RedirectOutcome => (credential ? { kind: 'signedIn', credential } : { kind: 'none' }),
    (error: unknown): RedirectOutcome => ({ kind: 'failed', error }),
  );
  const outcome = await redirectOutcome;
  return {
    ...outcome,
    claim() {
      if (redirectClaimed || outcome.kind === 'none') return false;
      redirectClaimed = true;
      return true;
    },
  };
}

/** For tests: a new page load. */
export function resetGoogleRedirectOutcome(): void {
  redirectOutcome = undefined;
  redirectClaimed = false;
}
