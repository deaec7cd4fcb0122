import { USER_PHOTO_MAX_BYTES, USER_PHOTO_TYPES } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { type ReactNode, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Avatar } from '../../components/Avatar';
import { Button, ButtonLink } from '../../components/Button';
import { TextField } from '../../components/form';
import { LanguageSwitcher } from '../../components/LanguageSwitcher';
import { Modal, ModalTitle } from '../../components/modal';
import { Page } from '../../components/Page';
import { apiError } from '../../lib/api';
import { useZodForm } from '../../lib/forms/useZodForm';
import { ApiKeysSection } from '../api-keys/ApiKeysSection';
import { WebhooksSection } from '../api-keys/WebhooksSection';
import { AuthMessageArea } from '../auth/AuthMessageArea';
import { type LoggedInUser, useUser } from '../auth/auth-context';
import { type AuthMessage, authErrorMessage } from '../auth/auth-errors';
import { useLoginModal } from '../auth/login-modal-context';
import { changePasswordSchema, deleteAccountSchema, profileSchema } from '../auth/validation';
import { NotificationsSection } from '../mail/NotificationsSection';
import {
  changePassword,
  deleteAccount,
  hasPassword,
  removeUploadedPhoto,
  saveProfile,
  uploadPhoto,
} from './account-actions';

/** A failure as one line: the API's message, else Firebase's (mapped), else the thrown message. */
function failure(error: unknown, t: TFunction): AuthMessage {
  const api = apiError(error);
  if (api) return { type: 'error', text: api.message, code: api.code };
  return authErrorMessage(error, t);
}

function Section({ title, children, danger }: { title: string; children: ReactNode; danger?: boolean }) {
  const id = useId();
  return (
    <section
      aria-labelledby={id}
      className={`flex flex-col gap-4 rounded-2xl border bg-panel p-5 ${danger ? 'border-status-red/40' : 'border-line'}`}
    >
      <h2 id={id} className={`text-base font-semibold ${danger ? 'text-status-red' : 'text-ink'}`}>
        {title}
      </h2>
      {children}
    </section>
  );
}

function ProfileSection({ user }: { user: LoggedInUser }) {
  const { t } = useTranslation('auth');
  const [message, setMessage] = useState<AuthMessage>();
  const [busy, setBusy] = useState(false);
  const file = useRef<HTMLInputElement>(null);

  const run = async (work: () => Promise<void>, done: string) => {
    setBusy(true);
    setMessage({ type: 'info', text: t('settings.saving') });
    try {
      await work();
      await user.refetch();
      setMessage({ type: 'info', text: done });
    } catch (error) {
      setMessage(failure(error, t));
    } finally {
      setBusy(false);
    }
  };

  const form = useZodForm({
    initialValues: { displayName: user.username, photoURL: user.photoURL ?? '' },
    schema: profileSchema,
    submit: ({ displayName, photoURL }) => {
      const photoChanged = photoURL !== (user.photoURL ?? '');
      return run(() => saveProfile({ displayName, ...(photoChanged && { photoURL }) }), t('settings.profile.saved'));
    },
    ns: 'auth',
  });
  const { displayName, photoURL } = form.values;
  const setPhotoURL = form.set('photoURL');

  const upload = (chosen: File | undefined) => {
    if (file.current) file.current.value = '';
    if (!chosen) return;
    if (!(USER_PHOTO_TYPES as readonly string[]).includes(chosen.type)) {
      setMessage({ type: 'error', text: t('settings.profile.wrongType') });
      return;
    }
    if (chosen.size > USER_PHOTO_MAX_BYTES) {
      setMessage({ type: 'error', text: t('settings.profile.tooLarge') });
      return;
    }
    void run(async () => {
      const url = await uploadPhoto(chosen);
      await saveProfile({ photoURL: url });
      setPhotoURL(url);
    }, t('settings.profile.saved'));
  };

  const remove = () =>
    run(async () => {
      await removeUploadedPhoto();
      await saveProfile({ photoURL: '' });
      setPhotoURL('');
    }, t('settings.profile.saved'));

  return (
    <Section title={t('settings.profile.title')}>
      <form noValidate onSubmit={form.handleSubmit} className="flex flex-col gap-4" data-testid="profile-form">
        <div className="flex flex-wrap items-center gap-4">
          <Avatar key={user.photoURL ?? ''} photoURL={user.photoURL} size={64} />
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" size="sm" disabled={busy} onClick={() => file.current?.click()}>
              {t('settings.profile.upload')}
            </Button>
            {user.photoURL && (
              <Button variant="ghost" size="sm" disabled={busy} onClick={() => void remove()}>
                {t('settings.profile.removePhoto')}
              </Button>
            )}
            <input
              ref={file}
              type="file"
              hidden
              accept={USER_PHOTO_TYPES.join(',')}
              data-testid="photo-file"
              onChange={(e) => upload(e.target.files?.[0])}
            />
          </div>
          <p className="w-full text-xs text-subtle">{t('settings.profile.uploadHint')}</p>
        </div>
        <TextField label={t('settings.profile.email')} value={user.email ?? ''} readOnly data-testid="settings-email" />
        <TextField
          label={t('settings.profile.displayName')}
          value={displayName}
          autoComplete="nickname"
          data-testid="settings-display-name"
          onChange={(e) => form.set('displayName')(e.target.value)}
        />
        <TextField
          label={t('settings.profile.photoUrl')}
          type="url"
          value={photoURL}
          hint={t('settings.profile.photoUrlHint')}
          data-testid="settings-photo-url"
          onChange={(e) => setPhotoURL(e.target.value)}
        />
        <AuthMessageArea message={form.firstError ? { type: 'error', text: form.firstError } : message} />
        <div>
          <Button type="submit" disabled={busy} data-testid="settings-save-profile">
            {t('settings.profile.save')}
          </Button>
        </div>
      </form>
    </Section>
  );
}

function PasswordSection() {
  const { t } = useTranslation('auth');
  const [message, setMessage] = useState<AuthMessage>();
  const form = useZodForm({
    initialValues: { current: '', next: '', confirm: '' },
    schema: changePasswordSchema,
    submit: async ({ current, next }) => {
      setMessage({ type: 'info', text: t('settings.saving') });
      try {
        await changePassword(current, next);
        form.reset();
        setMessage({ type: 'info', text: t('settings.password.changed') });
      } catch (error) {
        setMessage(failure(error, t));
      }
    },
    ns: 'auth',
  });
  const { current, next, confirm } = form.values;
  const busy = form.pending;

  if (!hasPassword()) {
    return (
      <Section title={t('settings.password.title')}>
        <p className="text-sm text-muted">{t('settings.password.federated')}</p>
      </Section>
    );
  }

  return (
    <Section title={t('settings.password.title')}>
      <form noValidate onSubmit={form.handleSubmit} className="flex flex-col gap-4" data-testid="password-form">
        <TextField
          label={t('settings.password.current')}
          icon="password"
          autoComplete="current-password"
          value={current}
          data-testid="settings-current-password"
          onChange={(e) => form.set('current')(e.target.value)}
        />
        <TextField
          label={t('settings.password.new')}
          icon="password"
          autoComplete="new-password"
          value={next}
          data-testid="settings-new-password"
          onChange={(e) => form.set('next')(e.target.value)}
        />
        <TextField
          label={t('settings.password.confirm')}
          icon="password"
          autoComplete="new-password"
          value={confirm}
          data-testid="settings-confirm-password"
          onChange={(e) => form.set('confirm')(e.target.value)}
        />
        <AuthMessageArea message={form.firstError ? { type: 'error', text: form.firstError } : message} />
        <div>
          <Button type="submit" disabled={busy || !current || !next || !confirm} data-testid="settings-change-password">
            {t('settings.password.submit')}
          </Button>
        </div>
      </form>
    </Section>
  );
}

function DeleteAccountSection() {
  const { t } = useTranslation('auth');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const loginModal = useLoginModal();
  const user = useUser();
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState<AuthMessage>();
  const withPassword = hasPassword();
  const confirmWord = t('settings.delete.confirmWord');
  const schema = useMemo(() => deleteAccountSchema(confirmWord, withPassword), [confirmWord, withPassword]);
  const form = useZodForm({
    initialValues: { password: '', word: '' },
    schema,
    submit: async ({ password }) => {
      setMessage({ type: 'info', text: t('settings.saving') });
      try {
        await deleteAccount(withPassword ? password : undefined);
        queryClient.clear();
        navigate('/dashboard', { replace: true });
      } catch (error) {
        const api = apiError(error);
        if (api?.code === 'recent_login_required' && !withPassword && user) {
          // A Google account proves a recent sign-in by signing in again (the modal only opens when logged out).
          close();
          await user.logout();
          navigate('/dashboard', { replace: true });
          loginModal?.open('login');
          return;
        }
        setMessage(failure(error, t));
      }
    },
  });
  const { word, password } = form.values;

  const close = () => {
    setOpen(false);
    form.reset();
    setMessage(undefined);
  };

  return (
    <Section title={t('settings.delete.title')} danger>
      <p className="text-sm text-muted">{t('settings.delete.description')}</p>
      <div>
        <Button variant="danger" onClick={() => setOpen(true)} data-testid="settings-delete-account">
          {t('settings.delete.button')}
        </Button>
      </div>
      <Modal open={open} onClose={close}>
        <form noValidate onSubmit={form.handleSubmit} className="flex flex-col gap-4" data-testid="delete-account-form">
          <ModalTitle>{t('settings.delete.confirmTitle')}</ModalTitle>
          <p className="text-sm text-muted">{t('settings.delete.confirmText')}</p>
          {withPassword && (
            <TextField
              label={t('settings.password.current')}
              icon="password"
              autoComplete="current-password"
              value={password}
              data-testid="delete-password"
              onChange={(e) => form.set('password')(e.target.value)}
            />
          )}
          <TextField
            label={t('settings.delete.confirmLabel')}
            value={word}
            autoComplete="off"
            data-autofocus
            data-testid="delete-confirm-word"
            onChange={(e) => form.set('word')(e.target.value)}
          />
          <AuthMessageArea message={message} />
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={close}>
              {t('settings.delete.cancel')}
            </Button>
            <Button type="submit" variant="danger" data-testid="delete-confirm" disabled={form.pending || !form.valid}>
              {t('settings.delete.confirm')}
            </Button>
          </div>
        </form>
      </Modal>
    </Section>
  );
}

/** /settings: profile (name, photo by URL or upload, e-mail), password, language, e-mail notifications, deletion. */
export function AccountSettingsPage() {
  const { t } = useTranslation('auth');
  const user = useUser();
  if (!user) return null;
  return (
    <Page
      name="settings"
      title={t('settings.title')}
      subtitle={t('settings.subtitle')}
      actions={
        <ButtonLink to="/settings/billing" variant="secondary">
          {t('settings.billingLink')}
        </ButtonLink>
      }
    >
      <div className="grid gap-6 lg:grid-cols-2">
        <ProfileSection user={user} />
        <div className="flex flex-col gap-6">
          <PasswordSection />
          <Section title={t('settings.language.title')}>
            <LanguageSwitcher />
          </Section>
          <NotificationsSection Section={Section} />
        </div>
      </div>
      <ApiKeysSection />
      <WebhooksSection />
      <DeleteAccountSection />
    </Page>
  );
}
