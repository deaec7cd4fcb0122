/**
 * A sign-up with Google leaves the page before the account exists, so the ticked terms box is remembered in this
 * tab until the account comes back logged in (TermsGate then records it).
 */
const KEY = 'portal.termsAcceptedBeforeGoogleSignUp';

// Storage can be unavailable (privacy modes, quota): the user is then asked by the dialog instead.
export function rememberTermsIntent(): void {
  try {
    sessionStorage.setItem(KEY, '1');
  } catch {}
}

export function forgetTermsIntent(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {}
}

export function hasTermsIntent(): boolean {
  try {
    return sessionStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}
