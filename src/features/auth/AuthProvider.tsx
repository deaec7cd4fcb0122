import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { User } from 'firebase/auth';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { setTokenSource } from '../../lib/api-token';
import { mayHaveSession, whenFirebaseStarts } from '../../lib/firebase-loader';
import { AuthContext, type AuthState } from './auth-context';
import { fetchUserInfo } from './user-info.api';

export const userInfoQueryKey = (uid: string) => ['user-info', uid] as const;

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [firebaseUser, setFirebaseUser] = useState<User | null | 'loading'>('loading');
  // Firebase mutates the same User object (updateProfile, reload); every token change bumps this to re-read it.
  const [revision, setRevision] = useState(0);

  // Firebase loads only when a session may exist; otherwise the visitor is logged out at once, and Firebase
  // starts with the log-in modal's forms (firebase-loader.ts), when this begins to follow it.
  useEffect(() => {
    let active = true;
    let unwatch: (() => void) | undefined;
    const follow = async () => {
      const session = await import('./firebase-session');
      if (!active || unwatch) return;
      setTokenSource(session.currentUserToken);
      unwatch = session.watchIdToken((user) => {
        setFirebaseUser(user);
        setRevision((r) => r + 1);
      });
    };
    const stopWaiting = whenFirebaseStarts(() => void follow());
    void mayHaveSession().then((may) => {
      if (!active || unwatch) return;
      if (may) follow().catch(() => setFirebaseUser(null));
      else setFirebaseUser((current) => (current === 'loading' ? null : current));
    });
    return () => {
      active = false;
      stopWaiting();
      unwatch?.();
    };
  }, []);

  const uid = firebaseUser !== 'loading' && firebaseUser ? firebaseUser.uid : undefined;
  const userInfo = useQuery({
    queryKey: userInfoQueryKey(uid ?? ''),
    queryFn: fetchUserInfo,
    enabled: uid !== undefined,
    retry: 1,
    staleTime: 60_000,
  });

  useEffect(() => {
    if (userInfo.isError) console.error('Failed to fetch userInfo status', userInfo.error);
  }, [userInfo.isError, userInfo.error]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: revision stands for the mutable User's fields
  const state = useMemo<AuthState>(() => {
    if (firebaseUser === 'loading') return 'loading';
    if (!firebaseUser) return undefined;
    return {
      uid: firebaseUser.uid,
      username: firebaseUser.displayName ?? '',
      ...(firebaseUser.email && { email: firebaseUser.email }),
      emailVerified: firebaseUser.emailVerified,
      ...(firebaseUser.photoURL && { photoURL: firebaseUser.photoURL }),
      teams: userInfo.data?.teams,
      isAdmin: userInfo.data?.isAdmin,
      refetch: async () => {
        await firebaseUser.reload();
        await firebaseUser.getIdToken(true);
        setRevision((r) => r + 1);
        await userInfo.refetch();
      },
      getToken: (forceRefresh) => firebaseUser.getIdToken(forceRefresh),
      logout: async () => {
        await (await import('./firebase-session')).logOut();
        queryClient.clear();
      },
    };
  }, [firebaseUser, revision, userInfo.data, userInfo.refetch, queryClient]);

  return <AuthContext.Provider value={state}>{children}</AuthContext.Provider>;
}
