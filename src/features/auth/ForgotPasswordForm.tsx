import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { TextField } from '../../components/form';
import { ModalTitle } from '../../components/modal';
import { useZodForm } from '../../lib/forms/useZodForm';
import { AuthMessageArea } from './AuthMessageArea';
import type { AuthFormProps } from './LoginForm';
import { loadAuthActions, loadAuthActionsOnUse } from './load-auth-actions';
import { useAuthAction } from './use-auth-action';

/** Sends Firebase's password-reset e-mail; an e-mail is required (spec §4, §5). */
export function ForgotPasswordForm({ onSwitch, onBusyChange }: Pick<AuthFormProps, 'onSwitch' | 'onBusyChange'>) {
  const { t } = useTranslation('auth');
  const { message, setMessage, busy, run } = useAuthAction(t, onBusyChange);
  const form = useZodForm({
    initialValues: { email: '' },
    schema: async () => (await import('./validation')).forgotPasswordSchema,
    submit: ({ email }) =>
      run(t('auth.forgotPassword.sending'), async () => (await loadAuthActions()).sendPasswordReset(email)),
    onSuccess: (sent) => {
      if (sent) setMessage({ type: 'info', text: t('auth.forgotPassword.confirm') });
    },
    ns: 'auth',
  });

  return (
    <form
      data-testid="forgot-form"
      noValidate
      onSubmit={form.handleSubmit}
      {...loadAuthActionsOnUse}
      className="flex flex-col gap-4"
    >
      <div>
        <ModalTitle>{t('auth.forgotPassword.title')}</ModalTitle>
        <p className="mt-1 text-sm text-muted">{t('auth.forgotPassword.subtitle')}</p>
      </div>
      <TextField
        label={t('auth.email')}
        type="email"
        name="email"
        autoComplete="email"
        data-autofocus
        data-testid="auth-email"
        value={form.values.email}
        onChange={(e) => form.set('email')(e.target.value)}
      />
      <AuthMessageArea message={form.firstError ? { type: 'error', text: form.firstError } : message} />
      <Button type="submit" data-testid="auth-submit" disabled={busy}>
        {t('auth.forgotPassword.submit')}
      </Button>
      <button
        type="button"
        className="text-center text-sm font-medium text-accent hover:underline"
        data-testid="auth-to-login"
        onClick={() => onSwitch('login')}
      >
        {t('auth.forgotPassword.backToLogin')}
      </button>
    </form>
  );
}
