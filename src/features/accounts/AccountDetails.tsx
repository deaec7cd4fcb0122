import type { NtripAccount } from '@portal/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ToggleSwitch } from '../../components/form';
import { ModalTitle, useModal } from '../../components/modal';
import { TabSwitch } from '../../components/TabSwitch';
import { actionFailedKey } from '../../lib/api-error';
import { useFormat } from '../../lib/format';
import { LiveSessions } from '../diagnostics/LiveSessions';
import { RefusedAttempts } from '../diagnostics/RefusedAttempts';
import { RenameDialog } from './AccountDialogs';
import { accountPermissions } from './account-permissions';
import { useAccounts, useDeleteAccount, useRegeneratePassword, useUpdateAccount } from './accounts.hooks';
import { type ActivateFromCard, ConnectionCard } from './ConnectionCard';
import { UsageList } from './UsageList';

type Tab = 'connection' | 'live' | 'usage' | 'refused' | 'manage';

function ManagePanel({ account }: { account: NtripAccount }) {
  const { t } = useTranslation('accounts');
  const modal = useModal();
  const update = useUpdateAccount();
  const regenerate = useRegeneratePassword();
  const remove = useDeleteAccount();
  const may = accountPermissions(account);
  const reopen = () =>
    modal.open(({ close }) => <AccountDetails accountId={account.id} onClose={close} initialTab="manage" />, {
      large: true,
    });
  return (
    <div className="flex flex-col gap-4">
      {!may.manage && (
        <p className="text-sm text-muted" data-testid="manage-not-allowed">
          {t('organizationManagedBy', { name: account.organization?.name })}
        </p>
      )}
      {may.manage && (
        <ToggleSwitch
          label={t('details.enabledLabel')}
          checked={account.enabled}
          disabled={update.isPending}
          onChange={(enabled) => update.mutate({ id: account.id, body: { enabled } })}
        />
      )}
      {update.isError && (
        <p role="alert" className="text-sm text-status-red">
          {t(actionFailedKey(update.error))}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        {may.manage && (
          <Button
            variant="secondary"
            onClick={() => modal.open(({ close }) => <RenameDialog account={account} onClose={close} />)}
          >
            {t('actions.rename')}
          </Button>
        )}
        {may.renewPassword && (
          <Button
            variant="secondary"
            onClick={() =>
              modal.open(
                <ConfirmDialog
                  title={t('regenerate.title', { name: account.label })}
                  confirmText={t('regenerate.confirm')}
                  onClose={reopen}
                  onConfirm={async () => {
                    const result = await regenerate.mutateAsync(account.id);
                    // The new password is shown once, in the connection card with everything it goes with.
                    modal.open(
                      ({ close }) => (
                        <AccountDetails accountId={account.id} onClose={close} password={result.password} />
                      ),
                      { large: true },
                    );
                  }}
                >
                  {t('regenerate.text')}
                </ConfirmDialog>,
              )
            }
          >
            {t('actions.regenerate')}
          </Button>
        )}
        {may.manage && (
          <Button
            variant="danger"
            onClick={() =>
              modal.open(({ close }) => (
                <ConfirmDialog
                  danger
                  title={t('delete.title', { name: account.label })}
                  confirmText={t('delete.confirm')}
                  onClose={reopen}
                  onConfirm={async () => {
                    await remove.mutateAsync(account.id);
                    close();
                  }}
                >
                  {t('delete.text')}
                </ConfirmDialog>
              ))
            }
          >
            {t('actions.delete')}
          </Button>
        )}
      </div>
    </div>
  );
}

/** One account in the modal: its connection card, its usage, and the account actions. */
export function AccountDetails({
  accountId,
  onClose,
  initialTab = 'connection',
  password,
  onActivate,
}: {
  accountId: string;
  onClose: () => void;
  initialTab?: Tab;
  /** A password just issued, shown once in the connection card. */
  password?: string;
  /** Opens the activation for this account (the page's dialog), from the card of an account without access. */
  onActivate?: (context: ActivateFromCard) => void;
}) {
  // The tab labels of the diagnostics come from their own namespace, loaded with this dialog.
  const { t } = useTranslation(['accounts', 'diagnostics']);
  const format = useFormat();
  const accounts = useAccounts();
  const [tab, setTab] = useState<Tab>(initialTab);
  const account = accounts.data?.find((a) => a.id === accountId);
  const gone = accounts.isSuccess && !account;
  // The account was deleted (here or elsewhere): nothing left to show.
  useEffect(() => {
    if (gone) onClose();
  }, [gone, onClose]);
  if (!account) return null;
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-col gap-1">
        <ModalTitle>{t('details.title', { name: account.label })}</ModalTitle>
        <p className="text-sm text-muted">
          <span className="font-mono">{account.username}</span> · {t(`status.${account.status}`)}
        </p>
        {account.grants.length > 0 && (
          <ul className="mt-1 flex flex-wrap gap-1.5 text-xs">
            {account.grants.map((g) => (
              <li key={g.id} className="rounded-full border border-line px-2 py-0.5 text-muted">
                {t('networkUntil', { network: g.networkName, date: format.dateTime(g.validUntil) })}
              </li>
            ))}
          </ul>
        )}
      </div>
      <TabSwitch<Tab>
        label={t('details.title', { name: account.label })}
        initial={initialTab}
        onChange={setTab}
        options={[
          { value: 'connection', label: t('details.tabs.connection') },
          { value: 'usage', label: t('details.tabs.usage') },
          { value: 'live', label: t('tabs.live', { ns: 'diagnostics' }) },
          { value: 'refused', label: t('tabs.refused', { ns: 'diagnostics' }) },
          { value: 'manage', label: t('details.tabs.manage') },
        ]}
      />
      {tab === 'connection' && <ConnectionCard account={account} password={password} onActivate={onActivate} />}
      {tab === 'usage' && <UsageList account={account} />}
      {tab === 'live' && <LiveSessions accountId={account.id} />}
      {tab === 'refused' && <RefusedAttempts accountId={account.id} />}
      {tab === 'manage' && <ManagePanel account={account} />}
    </div>
  );
}
