import { SIGN_UP_INVITE_ONLY } from '@portal/contract/invite-link';
import type { TFunction } from 'i18next';
import { apiError } from '../../lib/api-error';

/** What the one message area of the auth forms shows (spec §4): an error or an info line. */
export interface AuthMessage {
  type: 'error' | 'info';
  text: string;
  /** The service's error code, when there was one (e.g. auth/invalid-credential). */
  code?: string;
}

/** Firebase codes with a readable sentence in auth.errors.*; every other code shows the service's own message. */
export const MAPPED_AUTH_CODES = [
  'auth/invalid-credential',
  'auth/wrong-password',
  'auth/user-not-found',
  'auth/invalid-login-credentials',
  'auth/email-already-in-use',
  'auth/invalid-email',
  'auth/missing-email',
  'auth/weak-password',
  'auth/missing-password',
  'auth/too-many-requests',
  'auth/network-request-failed',
  'auth/user-disabled',
  'auth/requires-recent-login',
  'auth/operation-not-allowed',
  'auth/account-exists-with-different-credential',
  'auth/popup-closed-by-user',
  'auth/user-mismatch',
] as const;

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The service's own text: Firebase's "Firebase: <text> (auth/code)." without the decoration. */
export function serviceMessage(error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  const text = raw
    .replace(/^Firebase:\s*/, '')
    .replace(/\s*\((auth\/[\w-]+)\)\.?\s*$/, '')
    .trim();
  // "Error" alone says nothing: fall back to the whole message, code included.
  return text && text !== 'Error' ? text : raw;
}

/** An authentication failure as the forms show it: a readable sentence where the code is known, else the service's message. */
export function authErrorMessage(error: unknown, t: TFunction): AuthMessage {
  if (apiError(error)?.code === SIGN_UP_INVITE_ONLY) {
    return { type: 'error', text: t('auth.errors.signUpInviteOnly'), code: SIGN_UP_INVITE_ONLY };
  }
  const code = codeOf(error);
  const mapped = code && (MAPPED_AUTH_CODES as readonly string[]).includes(code);
  return {
    type: 'error',
    text: mapped ? t(`auth.errors.${code.slice('auth/'.length)}`) : serviceMessage(error),
    ...(code && { code }),
  };
}
