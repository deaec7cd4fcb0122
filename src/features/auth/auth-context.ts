import type { Team } from '@portal/contract';
import { createContext, useContext } from 'react';

export type ProfileType = 'Personal' | 'Admin';

/** The logged-in user as the spec describes it (§3): teams and isAdmin stay undefined until /user answers. */
export interface LoggedInUser {
  uid: string;
  username: string;
  email?: string;
  /**
   * Firebase has seen the user open the link it mailed to `email`; the server hands out nothing addressed to an
   * unverified e-mail (invites). Left out where a caller does not care (test fixtures); only `false` means unverified.
   */
  emailVerified?: boolean;
  photoURL?: string;
  /** The session of the sign-up: the account has not signed in since it was made, so it is greeted, not welcomed back. */
  firstSession?: boolean;
  teams: Team[] | undefined;
  isAdmin: boolean | undefined;
  /** Reloads the Firebase user, forces a new ID token (so the server sees e.g. a fresh verification) and GET /user. */
  refetch(): Promise<void>;
  getToken(forceRefresh?: boolean): Promise<string>;
  logout(): Promise<void>;
}

/** 'loading' while Firebase restores the session, undefined when logged out, else the user. */
export type AuthState = 'loading' | undefined | LoggedInUser;

export const AuthContext = createContext<AuthState>('loading');

/**
 * The key of a user's GET /api/user, which UserInfoQuery runs for the AuthProvider and the guards, the terms gate and
 * the forms observe. Here, in the first load, so a part that only reads the cache does not load the call.
 */
export const userInfoQueryKey = (uid: string) => ['user-info', uid] as const;

export function useAuth(): AuthState {
  return useContext(AuthContext);
}

/** The user when logged in, otherwise undefined (also while loading). */
export function useUser(): LoggedInUser | undefined {
  const state = useAuth();
  return state === 'loading' ? undefined : state;
}

/**
 * Firebase's account metadata (RFC 1123 dates): a user whose last sign-in is the one that made the account (within
 * a minute of it) is in their first session.
 */
export function isFirstSession(metadata?: { creationTime?: string; lastSignInTime?: string }): boolean {
  const created = Date.parse(metadata?.creationTime ?? '');
  const signedIn = Date.parse(metadata?.lastSignInTime ?? '');
  if (Number.isNaN(created) || Number.isNaN(signedIn)) return false;
  return signedIn - created < 60_000;
}
