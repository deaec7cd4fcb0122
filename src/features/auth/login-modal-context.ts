import { createContext, useContext } from 'react';
import { useNavigate } from 'react-router';

export type LoginModalView = 'login' | 'signup' | 'forgotPassword';

export interface LoginModalControls {
  isOpen: boolean;
  view: LoginModalView;
  open(view?: LoginModalView): void;
  close(): void;
}

/** Lets the header, the side-menu prompt and the /login, /signup, /register routes open the one login modal. */
export const LoginModalContext = createContext<LoginModalControls | undefined>(undefined);

/** Undefined when no login modal is mounted: callers then fall back to navigating to /login (spec §2). */
export function useLoginModal(): LoginModalControls | undefined {
  return useContext(LoginModalContext);
}

/** Opens the login modal, or goes to /login (/signup) when no modal handler is mounted (spec §2). */
export function useOpenLogin(): (view?: LoginModalView) => void {
  const modal = useLoginModal();
  const navigate = useNavigate();
  return (view = 'login') => {
    if (modal) modal.open(view);
    else navigate(view === 'signup' ? '/signup' : '/login');
  };
}
