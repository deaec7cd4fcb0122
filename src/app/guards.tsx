import { lazy, Suspense } from 'react';
import { Navigate, Outlet } from 'react-router';
import { Preloader } from '../components/Preloader';
import { useAuth } from '../features/auth/auth-context';
import { lazyWithQueries } from '../lib/query-client-slot';

// Observes the user-info query while the admin flag is unknown; React Query is not in the first load.
const RestrictedAccess = lazy(async () => ({
  default: (await import('../components/RestrictedAccess')).RestrictedAccess,
}));
const AdminFlagPending = lazyWithQueries(async () => (await import('./admin-flag-pending')).AdminFlagPending);

/** Personal routes: spinner while auth loads, logged-out users go to /dashboard (spec §2). */
export function RequireUser() {
  const auth = useAuth();
  if (auth === 'loading') return <Preloader />;
  if (!auth) return <Navigate to="/dashboard" replace />;
  return <Outlet />;
}

/**
 * Admin routes: logged-out users go to /dashboard; a logged-in non-admin sees the Restricted Access panel.
 * While the admin flag is still being fetched a spinner shows (a failed fetch counts as not admin).
 */
export function RequireAdmin() {
  const auth = useAuth();
  if (auth === 'loading') return <Preloader />;
  if (!auth) return <Navigate to="/dashboard" replace />;
  if (auth.isAdmin === undefined) {
    return (
      <Suspense fallback={<Preloader />}>
        <AdminFlagPending uid={auth.uid} />
      </Suspense>
    );
  }
  if (!auth.isAdmin) {
    return (
      <Suspense fallback={<Preloader />}>
        <RestrictedAccess />
      </Suspense>
    );
  }
  return <Outlet />;
}
