import i18n from 'i18next';
import { type ReactNode, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { mayHaveSession } from '../../lib/firebase-loader';
import { lazyWithQueries } from '../../lib/query-client-slot';
import { useUser } from './auth-context';
import type { AuthMessage } from './auth-errors';
import { loadAuthActions } from './load-auth-actions';
import { LoginModalContext, type LoginModalControls, type LoginModalView } from './login-modal-context';
import { TermsGate } from './TermsGate';

// The modal's forms bring Firebase Auth with them: a visitor who never opens it never downloads either. It shows
// with its texts, whole: a spinner first and the form after would resize the dialog under the reader's eyes.
const LoginModal = lazyWithQueries(async () => {
  const [module] = await Promise.all([import('./LoginModal'), i18n.loadNamespaces('auth').catch(() => undefined)]);
  return module.LoginModal;
});

// What follows a signed-in user's GET /api/user (the login event, an invite-only refusal): React Query, which it
// observes, loads only for a signed-in user.
const SignInWatch = lazyWithQueries(async () => (await import('./SignInWatch')).SignInWatch);

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

  const showRefusal = useCallback((message: AuthMessage) => {
    setInitialMessage(message);
    setView('login');
    setOpen(true);
  }, []);

  // A Google redirect returning to the app: Firebase signs the user in; a failure reopens the modal with its message.
  // A browser without Firebase's keys has no redirect on its way back, and need not load Firebase to learn it.
  useEffect(() => {
    let active = true;
    const redirect = mayHaveSession().then(async (may) =>
      may ? (await loadAuthActions()).completeGoogleRedirect() : undefined,
    );
    void redirect.then(async (outcome) => {
      if (!outcome || outcome.kind === 'none' || !active) return;
      if (outcome.kind === 'signedIn') {
        if (outcome.claim()) setPendingLogin(true);
        return;
      }
      // The auth texts and messages load lazily (the provider never suspends the page for them).
      const [{ authErrorMessage }] = await Promise.all([
        import('./auth-errors'),
        i18n.loadNamespaces('auth').catch(() => undefined),
      ]);
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
      {user && (
        <Suspense fallback={null}>
          <SignInWatch pendingLogin={pendingLogin} onLoginReported={loginReported} onRefusal={showRefusal} />
        </Suspense>
      )}
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
