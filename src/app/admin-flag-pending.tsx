import { useQuery } from '@tanstack/react-query';
import { Preloader } from '../components/Preloader';
import { RestrictedAccess } from '../components/RestrictedAccess';
import { userInfoQueryKey } from '../features/auth/auth-context';
import { fetchUserInfo } from '../features/auth/user-info.api';

/** An admin route while GET /api/user has not told whether the user is an admin: a failed fetch means no. */
export function AdminFlagPending({ uid }: { uid: string }) {
  // Observes the query the AuthProvider runs; never fetches by itself.
  const userInfo = useQuery({ queryKey: userInfoQueryKey(uid), queryFn: fetchUserInfo, enabled: false });
  return userInfo.isError ? <RestrictedAccess /> : <Preloader />;
}
