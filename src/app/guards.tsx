import { useQuery } from '@tanstack/react-query';
import { Navigate, Outlet } from 'react-router';
import { Preloader } from '../components/Preloader';
import { RestrictedAccess } from '../components/RestrictedAccess';
import { userInfoQueryKey } from '../features/auth/AuthProvider';
import { useAuth } from '../features/auth/auth-context';
import { fetchUserInfo } from '../features/auth/user-info.api';

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
  const uid = auth && auth !== 'loading' ? auth.uid : '';
  // Observes the query the AuthProvider runs; never fetches by itself.
  const userInfo = useQuery({ queryKey: userInfoQueryKey(uid), queryFn: fetchUserInfo, enabled: false });
  if (auth === 'loading') return <Preloader />;
  if (!auth) return <Navigate to="/dashboard" replace />;
  if (auth.isAdmin === undefined && userInfo.isPending && !userInfo.isError) return <Preloader />;
  if (!auth.isAdmin) return <RestrictedAccess />;
  return <Outlet />;
}
