import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { Page } from '../components/Page';
import { useAuth } from '../features/auth/auth-context';
import { type LoginModalView, useLoginModal } from '../features/auth/login-modal-context';

/**
 * /login, /signup, /register (spec §2): open the login/sign-up modal over the public dashboard. Logged-in users go
 * to /dashboard. Without a mounted modal a plain page stands in.
 */
export function LoginRoute({ view }: { view: LoginModalView }) {
  const auth = useAuth();
  const modal = useLoginModal();
  const loggedIn = Boolean(auth && auth !== 'loading');
  const opened = useRef(false);
  // Once per visit: closing the modal must not reopen it while the redirect to /dashboard is still pending. It opens
  // after the next frame, so that the page under it draws first and the modal's code does not load beside the page's
  // first paint on a slow line. This route is gone by then; the modal lives in its provider.
  useEffect(() => {
    if (!modal || loggedIn || opened.current) return;
    opened.current = true;
    requestAnimationFrame(() => setTimeout(() => modal.open(view)));
  }, [modal, loggedIn, view]);
  if (loggedIn || modal) return <Navigate to="/dashboard" replace />;
  return <LoginPlaceholderPage view={view} />;
}

/** /login, /signup while no login modal is mounted (the auth feature provides it). */
function LoginPlaceholderPage({ view }: { view: LoginModalView }) {
  const { t } = useTranslation();
  const key = view === 'signup' ? 'signup' : 'login';
  return <Page name={key} title={t(`pages.${key}.title`)} subtitle={t(`pages.${key}.description`)} />;
}
