import type { Team } from '@portal/contract';
import { createContext, useContext } from 'react';

export type ProfileType = 'Personal' | 'Admin';

/** The logged-in user as the spec describes it (§3): teams and isAdmin stay undefined until /user answers. */
export interface LoggedInUser {
  uid: string;
  username: string;
  email?: string;
  photoURL?: string;
  teams: Team[] | undefined;
  isAdmin: boolean | undefined;
  refetch(): Promise<void>;
  getToken(forceRefresh?: boolean): Promise<string>;
  logout(): Promise<void>;
}

/** 'loading' while Firebase restores the session, undefined when logged out, else the user. */
export type AuthState = 'loading' | undefined | LoggedInUser;

export const AuthContext = createContext<AuthState>('loading');

export function useAuth(): AuthState {
  return useContext(AuthContext);
}

/** The user when logged in, otherwise undefined (also while loading). */
export function useUser(): LoggedInUser | undefined {
  const state = useAuth();
  return state === 'loading' ? undefined : state;
}
