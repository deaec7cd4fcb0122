import { useQuery, useQueryClient } from '@tanstack/react-query';
import { onIdTokenChanged, signOut, type User } from 'firebase/auth';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { setTokenSource } from '../../lib/api';
import { firebaseAuth } from '../../lib/firebase';
import { AuthContext, type AuthState } from './auth-context';
import { fetchUserInfo } from './user-info.api';

export const userInfoQueryKey = (uid: string) => ['user-info', uid] as const;

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [firebaseUser, setFirebaseUser] = useState<User | null | 'loading'>('loading');
  // Firebase mutates the same User object (updateProfile, reload); every token change bumps this to re-read it.
  const [revision, setRevision] = useState(0);

  useEffect(() => {
    const auth = firebaseAuth();
    setTokenSource(async () => (auth.currentUser ? auth.currentUser.getIdToken() : null));
    return onIdTokenChanged(auth, (user) => {
      setFirebaseUser(user);
      setRevision((r) => r + 1);
    });
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
        await signOut(firebaseAuth());
        queryClient.clear();
      },
    };
  }, [firebaseUser, revision, userInfo.data, userInfo.refetch, queryClient]);

  return <AuthContext.Provider value={state}>{children}</AuthContext.Provider>;
}
