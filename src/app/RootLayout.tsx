import { lazy, Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ModalProvider } from '../components/modal';
import { Preloader } from '../components/Preloader';
import { useAuth } from '../features/auth/auth-context';
import { LoginModalProvider } from '../features/auth/LoginModalProvider';
import { consentNeeded } from '../features/consent/consent';
import { trackPageView } from '../lib/analytics';

// Asked once, by brands with Tag Manager: fixed over the page, so drawing it a moment later moves nothing.
const ConsentBanner = lazy(async () => ({
  default: (await import('../features/consent/ConsentBanner')).ConsentBanner,
}));

function PageViews() {
  const { pathname, search } = useLocation();
  useEffect(() => {
    // After the page has set its title.
    const id = window.setTimeout(() => trackPageView(pathname + search), 0);
    return () => window.clearTimeout(id);
  }, [pathname, search]);
  return null;
}

/**
 * Root of every route: the modal host, the login modal, page-view tracking, the cookie question and the spinner
 * while authentication loads.
 */
export function RootLayout() {
  const auth = useAuth();
  return (
    <ModalProvider>
      <LoginModalProvider>
        <PageViews />
        {auth === 'loading' ? <Preloader fullScreen /> : <Outlet />}
        {consentNeeded() && (
          <Suspense fallback={null}>
            <ConsentBanner />
          </Suspense>
        )}
      </LoginModalProvider>
    </ModalProvider>
  );
}
