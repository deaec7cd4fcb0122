import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Checkbox, TextField } from '../../components/form';
import { ModalTitle } from '../../components/modal';
import { useZodForm } from '../../lib/forms/useZodForm';
import { AuthFormFooter } from './AuthFormFooter';
import { userInfoQueryKey } from './auth-context';
import { canSubmitSignUp, type SignUpValues } from './auth-fields';
import type { AuthFormProps } from './LoginForm';
import { loadAuthActions, loadAuthActionsOnUse } from './load-auth-actions';
import { fetchSignUpPolicy } from './sign-up.api';
import { TermsLabel } from './TermsLabel';
import { forgetTermsIntent, rememberTermsIntent } from './terms-intent';
import { useAuthAction } from './use-auth-action';

/** Sign up with e-mail, username, password, confirmation and the terms box (spec §4, §5), or Google after the box. */
export function SignUpForm({ onSwitch, onBusyChange, onSuccess, initialMessage }: AuthFormProps) {
  const { t } = useTranslation('auth');
  const queryClient = useQueryClient();
  const { message, busy, run } = useAuthAction(t, onBusyChange, initialMessage);
  const policy = useQuery({ queryKey: ['sign-up-policy'], queryFn: fetchSignUpPolicy, staleTime: 60_000 });

  const form = useZodForm({
    initialValues: { email: '', username: '', password: '', confirmPassword: '', acceptTerms: false } as SignUpValues,
    schema: async () => (await import('./validation')).signUpSchema,
    submit: (values) =>
      run(t('auth.register.messaging.registering'), async () => {
        const { signUpWithEmail } = await loadAuthActions();
        const { credential, userInfo } = await signUpWithEmail(values);
        const key = userInfoQueryKey(credential.user.uid);
        // The AuthProvider asked as soon as the account existed, before the acceptance: its answer must not win.
        await queryClient.cancelQueries({ queryKey: key });
        queryClient.setQueryData(key, userInfo);
        onSuccess?.();
      }),
    ns: 'auth',
  });
  const { values } = form;
  const set = (field: keyof SignUpValues) => (e: { target: HTMLInputElement }) =>
    form.set(field)(field === 'acceptTerms' ? e.target.checked : e.target.value);

  const google = () =>
    run(t('auth.redirectingToGoogle'), async () => {
      rememberTermsIntent();
      try {
        await (await loadAuthActions()).startGoogleRedirect();
      } catch (error) {
        forgetTermsIntent();
        throw error;
      }
    });

  return (
    <form
      data-testid="signup-form"
      noValidate
      onSubmit={form.handleSubmit}
      {...loadAuthActionsOnUse}
      className="flex flex-col gap-4"
    >
      <div>
        <ModalTitle>{t('auth.register.title')}</ModalTitle>
        <p className="mt-1 text-sm text-muted">{t('auth.register.subtitle')}</p>
      </div>
      {policy.data?.signUp === 'invite-only' && (
        <p data-testid="signup-invite-only" className="rounded-lg border border-line bg-raised p-3 text-sm text-ink">
          {t('auth.register.messaging.inviteOnly')}
        </p>
      )}
      <TextField
        label={t('auth.email')}
        type="email"
        name="email"
        autoComplete="email"
        data-autofocus
        data-testid="auth-email"
        value={values.email}
        onChange={set('email')}
      />
      <TextField
        label={t('auth.register.username')}
        name="username"
        autoComplete="username"
        data-testid="auth-username"
        value={values.username}
        onChange={set('username')}
      />
      <TextField
        label={t('auth.password')}
        icon="password"
        name="password"
        autoComplete="new-password"
        data-testid="auth-password"
        value={values.password}
        onChange={set('password')}
      />
      <TextField
        label={t('auth.register.confirmPassword')}
        icon="password"
        name="confirmPassword"
        autoComplete="new-password"
        data-testid="auth-confirm-password"
        value={values.confirmPassword}
        onChange={set('confirmPassword')}
      />
      <Checkbox
        name="acceptTerms"
        data-testid="auth-terms"
        required
        checked={values.acceptTerms}
        onChange={set('acceptTerms')}
        label={<TermsLabel />}
      />
      <AuthFormFooter
        message={form.firstError ? { type: 'error', text: form.firstError } : message}
        submitLabel={t('auth.register.submit')}
        canSubmit={canSubmitSignUp(values)}
        busy={busy}
        onGoogle={google}
        canUseGoogle={values.acceptTerms}
        question={t('auth.register.haveAccount')}
        switchLabel={t('auth.register.toLogin')}
        switchTestId="auth-to-login"
        onSwitch={() => onSwitch('login')}
      />
    </form>
  );
}
