import { useTranslation } from 'react-i18next';
import { TextField } from '../../components/form';
import { ModalTitle } from '../../components/modal';
import { useZodForm } from '../../lib/forms/useZodForm';
import { AuthFormFooter } from './AuthFormFooter';
import type { AuthMessage } from './auth-errors';
import { canSubmitLogin } from './auth-fields';
import { loadAuthActions, loadAuthActionsOnUse } from './load-auth-actions';
import type { LoginModalView } from './login-modal-context';
import { forgetTermsIntent } from './terms-intent';
import { useAuthAction } from './use-auth-action';

export interface AuthFormProps {
  onSwitch(view: LoginModalView): void;
  /** The modal stays open while a call runs, even when the user is already signed in. */
  onBusyChange?(busy: boolean): void;
  /** Called after a successful sign-in or sign-up, before busy turns false. */
  onSuccess?(): void;
  initialMessage?: AuthMessage;
}

/** Log in with e-mail and password (spec §4, §5) or Google by redirect. */
export function LoginForm({ onSwitch, onBusyChange, onSuccess, initialMessage }: AuthFormProps) {
  const { t } = useTranslation('auth');
  const { message, busy, run } = useAuthAction(t, onBusyChange, initialMessage);
  // A box ticked for an abandoned Google sign-up must not count for whoever logs in here instead.
  const logInAction = (action: () => Promise<void>) => async () => {
    forgetTermsIntent();
    await action();
  };

  const form = useZodForm({
    initialValues: { email: '', password: '' },
    schema: async () => (await import('./validation')).loginSchema,
    submit: ({ email, password }) =>
      run(
        t('auth.login.messaging.loggingIn'),
        logInAction(async () => {
          await (await loadAuthActions()).logInWithEmail(email, password);
          onSuccess?.();
        }),
      ),
    ns: 'auth',
  });
  const { email, password } = form.values;

  const google = () =>
    run(
      t('auth.redirectingToGoogle'),
      logInAction(async () => (await loadAuthActions()).startGoogleRedirect()),
    );

  return (
    <form
      data-testid="login-form"
      noValidate
      onSubmit={form.handleSubmit}
      {...loadAuthActionsOnUse}
      className="flex flex-col gap-4"
    >
      <div>
        <ModalTitle>{t('auth.login.title')}</ModalTitle>
        <p className="mt-1 text-sm text-muted">{t('auth.login.subtitle')}</p>
      </div>
      <TextField
        label={t('auth.email')}
        type="email"
        name="email"
        autoComplete="email"
        data-autofocus
        data-testid="auth-email"
        value={email}
        onChange={(e) => form.set('email')(e.target.value)}
      />
      <TextField
        label={t('auth.password')}
        icon="password"
        name="password"
        autoComplete="current-password"
        data-testid="auth-password"
        value={password}
        onChange={(e) => form.set('password')(e.target.value)}
      />
      <div className="-mt-2 flex justify-end">
        <button
          type="button"
          className="text-sm text-accent hover:underline"
          data-testid="auth-forgot-password"
          onClick={() => onSwitch('forgotPassword')}
        >
          {t('auth.login.forgotPassword')}
        </button>
      </div>
      <AuthFormFooter
        message={form.firstError ? { type: 'error', text: form.firstError } : message}
        submitLabel={t('auth.login.submit')}
        canSubmit={canSubmitLogin({ email, password })}
        busy={busy}
        onGoogle={google}
        question={t('auth.login.noAccount')}
        switchLabel={t('auth.login.toSignUp')}
        switchTestId="auth-to-signup"
        onSwitch={() => onSwitch('signup')}
      />
    </form>
  );
}
