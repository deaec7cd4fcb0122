import { Button } from '../../components/Button';
import { AuthMessageArea } from './AuthMessageArea';
import type { AuthMessage } from './auth-errors';
import { GoogleButton, OrDivider } from './GoogleButton';

/** The common end of the log-in and sign-up forms: message, submit, Google sign-in and the switch to the other view. */
export function AuthFormFooter({
  message,
  submitLabel,
  canSubmit,
  busy,
  onGoogle,
  canUseGoogle = true,
  question,
  switchLabel,
  switchTestId,
  onSwitch,
}: {
  message: AuthMessage | undefined;
  submitLabel: string;
  canSubmit: boolean;
  busy: boolean;
  onGoogle: () => void;
  /** Signing up with Google creates an account as the e-mail form does, so it waits for the same terms box. */
  canUseGoogle?: boolean;
  question: string;
  switchLabel: string;
  switchTestId: string;
  onSwitch: () => void;
}) {
  return (
    <>
      <AuthMessageArea message={message} />
      <Button type="submit" data-testid="auth-submit" disabled={!canSubmit || busy}>
        {submitLabel}
      </Button>
      <OrDivider />
      <GoogleButton onClick={onGoogle} disabled={busy || !canUseGoogle} />
      <p className="text-center text-sm text-muted">
        {question}{' '}
        <button
          type="button"
          className="font-medium text-accent hover:underline"
          data-testid={switchTestId}
          onClick={onSwitch}
        >
          {switchLabel}
        </button>
      </p>
    </>
  );
}
