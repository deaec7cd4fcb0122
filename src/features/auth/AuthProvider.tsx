import type { QueryClient } from '@tanstack/react-query';
import type { User } from 'firebase/auth';
import { type ReactNode, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { mayHaveSession, whenFirebaseStarts } from '../../lib/firebase-loader';
import i18n from '../../lib/i18n';
import { lazyWithQueries, loadQueries } from '../../lib/query-client-slot';
import { followUiLanguage } from '../mail/mail-language';
import { AuthContext, type AuthState, isFirstSession } from './auth-context';
import type { UserInfoSnapshot } from './UserInfoQuery';

const UserInfoQuery = lazyWithQueries(async () => (await import('./UserInfoQuery')).UserInfoQuery);

export function AuthProvider({ children }: { children: ReactNode }) {
  const [firebaseUser, setFirebaseUser] = useState<User | null | 'loading'>('loading');
  // Firebase mutates the same User object (updateProfile, reload); every token change bumps this to re-read it.
  const [revision, setRevision] = useState(0);

  // Firebase loads only when a session may exist; otherwise the visitor is logged out at once, and Firebase
  // starts with the log-in modal's forms (firebase-loader.ts), when this begins to follow it.
  useEffect(() => {
    let active = true;
    let unwatch: (() => void) | undefined;
    const follow = async () => {
      // A signed-in user's pages query: React Query loads beside Firebase, not after it.
      void loadQueries();
      const session = await import('./firebase-session');
      if (!active || unwatch) return;
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
  // The server mails the user in the language they use the portal in.
  useEffect(() => {
    if (!uid) return;
    return followUiLanguage(uid, i18n, async (locale) =>
      (await import('../mail/mail.api')).saveNotificationPreferences({ locale }),
    );
  }, [uid]);
  const [reported, setUserInfo] = useState<UserInfoSnapshot>();
  const userInfo = reported?.uid === uid ? reported : undefined;
  // The signed-in user's caches are cleared once they are signed out and their queries are unmounted: cleared any
  // earlier, a query still mounted would fetch again into the cache.
  const signedInClient = useRef<QueryClient | undefined>(undefined);
  if (userInfo) signedInClient.current = userInfo.client;
  useEffect(() => {
    if (!uid) signedInClient.current?.clear();
  }, [uid]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: revision stands for the mutable User's fields
  const state = useMemo<AuthState>(() => {
    if (firebaseUser === 'loading') return 'loading';
    if (!firebaseUser) return undefined;
    return {
      uid: firebaseUser.uid,
      username: firebaseUser.displayName ?? '',
      ...(firebaseUser.email && { email: firebaseUser.email }),
      emailVerified: firebaseUser.emailVerified,
      firstSession: isFirstSession(firebaseUser.metadata),
      ...(firebaseUser.photoURL && { photoURL: firebaseUser.photoURL }),
      teams: userInfo?.data?.teams,
      isAdmin: userInfo?.data?.isAdmin,
      refetch: async () => {
        await firebaseUser.reload();
        await firebaseUser.getIdToken(true);
        setRevision((r) => r + 1);
        await userInfo?.refetch();
      },
      getToken: (forceRefresh) => firebaseUser.getIdToken(forceRefresh),
      logout: async () => (await import('./firebase-session')).logOut(),
    };
  }, [firebaseUser, revision, userInfo]);

  return (
    <AuthContext.Provider value={state}>
      {children}
      {uid && (
        <Suspense fallback={null}>
          <UserInfoQuery uid={uid} onChange={setUserInfo} />
        </Suspense>
      )}
    </AuthContext.Provider>
  );
}
