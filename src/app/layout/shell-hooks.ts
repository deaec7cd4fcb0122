import { useLocation, useNavigate } from 'react-router';
import type { ProfileType } from '../../features/auth/auth-context';
import { useAuth } from '../../features/auth/auth-context';
import { type LoginModalView, useLoginModal } from '../../features/auth/login-modal-context';
import { brand } from '../../lib/brand';
import { isAdminPath } from '../navigation';

/** Admin on /admin/* routes, Personal elsewhere; labels navigation.admin / navigation.personal (spec §6). */
export function useProfileType(): ProfileType {
  return isAdminPath(useLocation().pathname) ? 'Admin' : 'Personal';
}

export const profileLabelKey = (profile: ProfileType) =>
  profile === 'Admin' ? 'navigation.admin' : 'navigation.personal';

/** Opens the login modal, or goes to /login (/signup) when no modal handler is mounted (spec §2). */
export function useOpenLogin(): (view?: LoginModalView) => void {
  const modal = useLoginModal();
  const navigate = useNavigate();
  return (view = 'login') => {
    if (modal) modal.open(view);
    else navigate(view === 'signup' ? '/signup' : '/login');
  };
}

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
