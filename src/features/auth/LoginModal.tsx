import { Suspense } from 'react';
import { Modal } from '../../components/modal';
import { Preloader } from '../../components/Preloader';
import type { AuthMessage } from './auth-errors';
import { ForgotPasswordForm } from './ForgotPasswordForm';
import { LoginForm } from './LoginForm';
import type { LoginModalView } from './login-modal-context';
import { SignUpForm } from './SignUpForm';

export interface LoginModalProps {
  open: boolean;
  view: LoginModalView;
  onViewChange(view: LoginModalView): void;
  onClose(): void;
  onBusyChange?(busy: boolean): void;
  onSuccess?(): void;
  /** Shown in the login view when it opens, e.g. a failed Google redirect. */
  initialMessage?: AuthMessage;
}

/** The login/sign-up modal: one dialog toggling between the login, sign-up and forgot-password views. */
export function LoginModal({
  open,
  view,
  onViewChange,
  onClose,
  onBusyChange,
  onSuccess,
  initialMessage,
}: LoginModalProps) {
  const props = { onSwitch: onViewChange, onBusyChange, onSuccess };
  return (
    <Modal open={open} onClose={onClose}>
      <div data-testid="login-modal" data-view={view}>
        {/* The auth texts load on first open; only the dialog waits for them, not the page. */}
        <Suspense fallback={<Preloader />}>
          {view === 'login' && <LoginForm key="login" {...props} initialMessage={initialMessage} />}
          {view === 'signup' && <SignUpForm key="signup" {...props} />}
          {view === 'forgotPassword' && <ForgotPasswordForm key="forgot" {...props} />}
        </Suspense>
      </div>
    </Modal>
  );
}
