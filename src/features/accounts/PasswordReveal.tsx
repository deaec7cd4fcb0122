import type { NtripAccountWithPassword } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { ModalTitle } from '../../components/modal';
import { CopyValue } from './CopyValue';
import { relayAddress, str2strInput } from './relay';

/** The one time a password is shown: username and password with copy controls, a warning and a ready line. */
export function PasswordReveal({
  result,
  created,
  onDone,
  firstMountpoint,
}: {
  result: NtripAccountWithPassword;
  created: boolean;
  onDone: () => void;
  firstMountpoint?: string;
}) {
  const { t } = useTranslation('accounts');
  const relay = relayAddress();
  return (
    <div className="flex flex-col gap-4">
      <ModalTitle>{t(created ? 'password.createdTitle' : 'password.regeneratedTitle')}</ModalTitle>
      <p
        role="alert"
        className="flex gap-2 rounded-xl border border-status-yellow/40 bg-status-yellow/10 p-3 text-sm text-ink"
      >
        <Icon name="warning" size={18} className="mt-0.5 shrink-0 text-status-yellow" />
        {t('password.warning')}
      </p>
      <CopyValue
        label={t('password.username')}
        value={result.account.username}
        copyLabel={t('password.copyUsername')}
        testId="new-username"
      />
      <CopyValue
        label={t('password.password')}
        value={result.password}
        copyLabel={t('password.copyPassword')}
        testId="new-password"
      />
      {firstMountpoint && (
        <CopyValue
          label={t('password.str2strLine')}
          value={str2strInput({
            ...relay,
            username: result.account.username,
            password: result.password,
            mountpoint: firstMountpoint,
          })}
          copyLabel={t('details.copyLine')}
        />
      )}
      <div className="flex justify-end">
        <Button onClick={onDone} data-autofocus>
          {t('actions.done')}
        </Button>
      </div>
    </div>
  );
}
