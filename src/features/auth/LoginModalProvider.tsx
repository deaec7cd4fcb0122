import { SIGN_UP_INVITE_ONLY } from '@portal/contract/invite-link';
import { useQuery } from '@tanstack/react-query';
import i18n from 'i18next';
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { track } from '../../lib/analytics';
import { apiError } from '../../lib/api-error';
import { mayHaveSession } from '../../lib/firebase-loader';
import { userInfoQueryKey } from './AuthProvider';
import { useUser } from './auth-context';
import { type AuthMessage, authErrorMessage } from './auth-errors';
import { LoginModalContext, type LoginModalControls, type LoginModalView } from './login-modal-context';
import { TermsGate } from './TermsGate';
import { fetchUserInfo } from './user-info.api';

// The modal's forms bring Firebase Auth with them: a visitor who never opens it never downloads either. It shows
// with its texts, whole: a spinner first and the form after would resize the dialog under the reader's eyes.
const LoginModal = lazy(async () => {
  const [module] = await Promise.all([import('./LoginModal'), i18n.loadNamespaces('auth').catch(() => undefined)]);
  return { default: module.LoginModal };
});

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

/**
 * Mounts the one login modal and lets the header, side menu and /login routes open it (useLoginModal). The children
 * wait for the terms (TermsGate) but not while the modal is busy, since an e-mail sign-up records them itself.
 */
export function LoginModalProvider({ children }: { children: ReactNode }) {
  const user = useUser();
  const [isOpen, setOpen] = useState(false);
  const [everOpened, setEverOpened] = useState(false);
  if (isOpen && !everOpened) setEverOpened(true);
  const [view, setView] = useState<LoginModalView>('login');
  const [busy, setBusy] = useState(false);
  const [initialMessage, setInitialMessage] = useState<AuthMessage>();
  const [pendingLogin, setPendingLogin] = useState(false);
  const loginReported = useCallback(() => setPendingLogin(false), []);

  useLoginEvent(pendingLogin, loginReported);
  const showRefusal = useCallback((message: AuthMessage) => {
    setInitialMessage(message);
    setView('login');
    setOpen(true);
  }, []);
  useSignUpRefusal(showRefusal);

  // A Google redirect returning to the app: Firebase signs the user in; a failure reopens the modal with its message.
  // A browser without Firebase's keys has no redirect on its way back, and need not load Firebase to learn it.
  useEffect(() => {
    let active = true;
    const redirect = mayHaveSession().then(async (may) =>
      may ? (await import('./auth-actions')).completeGoogleRedirect() : undefined,
    );
    void redirect.then(async (outcome) => {
      if (!outcome || outcome.kind === 'none' || !active) return;
      if (outcome.kind === 'signedIn') {
        if (outcome.claim()) setPendingLogin(true);
        return;
      }
      // The auth texts load lazily (the provider never suspends the page for them).
      await i18n.loadNamespaces('auth').catch(() => undefined);
      if (!active || !outcome.claim()) return;
      setInitialMessage(authErrorMessage(outcome.error, i18n.getFixedT(null, 'auth')));
      setView('login');
      setOpen(true);
    });
    return () => {
      active = false;
    };
  }, []);

  // Closes when authentication resolves to a user, once the form's call has finished.
  useEffect(() => {
    if (isOpen && user && !busy) setOpen(false);
  }, [isOpen, user, busy]);

  const open = useCallback((next: LoginModalView = 'login') => {
    setInitialMessage(undefined);
    setView(next);
    setOpen(true);
  }, []);
  const close = useCallback(() => setOpen(false), []);
  const markSuccess = useCallback(() => setPendingLogin(true), []);

  const controls = useMemo<LoginModalControls>(() => ({ isOpen, view, open, close }), [isOpen, view, open, close]);

  return (
    <LoginModalContext.Provider value={controls}>
      <TermsGate paused={busy}>{children}</TermsGate>
      {everOpened && (
        <Suspense fallback={null}>
          <LoginModal
            open={isOpen}
            view={view}
            onViewChange={setView}
            onClose={close}
            onBusyChange={setBusy}
            onSuccess={markSuccess}
            initialMessage={initialMessage}
          />
        </Suspense>
      )}
    </LoginModalContext.Provider>
  );
}
