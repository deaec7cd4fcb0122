import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { TextField } from '../../components/form';
import { ModalTitle } from '../../components/modal';
import { AuthMessageArea } from './AuthMessageArea';
import { sendPasswordReset } from './auth-actions';
import type { AuthFormProps } from './LoginForm';
import { useAuthAction } from './use-auth-action';
import { forgotPasswordError } from './validation';

/** Sends Firebase's password-reset e-mail; an e-mail is required (spec §4, §5). */
export function ForgotPasswordForm({ onSwitch, onBusyChange }: Pick<AuthFormProps, 'onSwitch' | 'onBusyChange'>) {
  const { t } = useTranslation('auth');
  const [email, setEmail] = useState('');
  const { message, setMessage, busy, run } = useAuthAction(t, onBusyChange);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = forgotPasswordError(email);
    if (invalid) {
      setMessage({ type: 'error', text: t(invalid) });
      return;
    }
    const sent = await run(t('auth.forgotPassword.sending'), () => sendPasswordReset(email));
    if (sent) setMessage({ type: 'info', text: t('auth.forgotPassword.confirm') });
  };

  return (
    <form data-testid="forgot-form" noValidate onSubmit={submit} className="flex flex-col gap-4">
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
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <AuthMessageArea message={message} />
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
