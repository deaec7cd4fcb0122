import { SIGN_UP_INVITE_ONLY } from '@portal/contract/invite-link';
import { useQuery } from '@tanstack/react-query';
import i18n from 'i18next';
import { useEffect, useRef } from 'react';
import { track } from '../../lib/analytics';
import { apiError } from '../../lib/api-error';
import { userInfoQueryKey, useUser } from './auth-context';
import { type AuthMessage, authErrorMessage } from './auth-errors';
import { fetchUserInfo } from './user-info.api';

/**
 * Pushes the analytics `login` event (spec §4, §7) once the app knows the role of a user who just signed in:
 * after GET /api/user answered, or failed (then the role is 'user').
 */
function useLoginEvent(pending: boolean, done: () => void) {
  const user = useUser();
  const uid = user?.uid ?? '';
  // Observes the query the AuthProvider runs; never fetches by itself.
  const userInfo = useQuery({ queryKey: userInfoQueryKey(uid), queryFn: fetchUserInfo, enabled: false });
  const known = user && (user.isAdmin !== undefined || userInfo.isError);
  useEffect(() => {
    if (!user || !known || !pending) return;
    done();
    track({ event: 'login', userId: user.uid, userRole: user.isAdmin ? 'admin' : 'user' });
  }, [user, known, pending, done]);
}

/**
 * A first sign-in the portal refused because sign-up is invite-only (a Google account, or an e-mail sign-up whose
 * own handling lost the race): the user is signed out again and `show` tells them why (docs/adr/0033).
 */
function useSignUpRefusal(show: (message: AuthMessage) => void) {
  const user = useUser();
  const uid = user?.uid ?? '';
  const userInfo = useQuery({ queryKey: userInfoQueryKey(uid), queryFn: fetchUserInfo, enabled: false });
  const refused = apiError(userInfo.error)?.code === SIGN_UP_INVITE_ONLY;
  const handled = useRef<string>(undefined);
  useEffect(() => {
    if (!user || !refused || handled.current === user.uid) return;
    handled.current = user.uid;
    void (async () => {
      await user.logout();
      await i18n.loadNamespaces('auth').catch(() => undefined);
      show(authErrorMessage(userInfo.error, i18n.getFixedT(null, 'auth')));
    })();
  }, [refused, user, userInfo.error, show]);
}

/** The login modal's part that follows GET /api/user of a signed-in user (LoginModalProvider). */
export function SignInWatch({
  pendingLogin,
  onLoginReported,
  onRefusal,
}: {
  pendingLogin: boolean;
  onLoginReported: () => void;
  onRefusal: (message: AuthMessage) => void;
}) {
  useLoginEvent(pendingLogin, onLoginReported);
  useSignUpRefusal(onRefusal);
  return null;
}
