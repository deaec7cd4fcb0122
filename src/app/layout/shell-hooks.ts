import { useLocation, useNavigate } from 'react-router';
import type { ProfileType } from '../../features/auth/auth-context';
import { useAuth } from '../../features/auth/auth-context';
import { brand } from '../../lib/brand';
import { isAdminPath } from '../navigation';

/** Admin on /admin/* routes, Personal elsewhere; labels navigation.admin / navigation.personal (spec §6). */
export function useProfileType(): ProfileType {
  return isAdminPath(useLocation().pathname) ? 'Admin' : 'Personal';
}

export const profileLabelKey = (profile: ProfileType) =>
  profile === 'Admin' ? 'navigation.admin' : 'navigation.personal';

/** Logs out and lands on the public dashboard. */
export function useLogout(): () => Promise<void> {
  const auth = useAuth();
  const navigate = useNavigate();
  return async () => {
    if (auth && auth !== 'loading') await auth.logout();
    navigate('/dashboard');
  };
}

export const showHelpLinks = !brand.isRebranded;
