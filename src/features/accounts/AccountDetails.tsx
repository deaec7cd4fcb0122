import type { NtripAccount } from '@portal/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { CopyControl } from '../../components/CopyControl';
import { ToggleSwitch } from '../../components/form';
import { ModalTitle, useModal } from '../../components/modal';
import { TabSwitch } from '../../components/TabSwitch';
import { ConfirmDialog, RenameDialog } from './AccountDialogs';
import {
  useAccounts,
  useDeleteAccount,
  useMountpoints,
  useRegeneratePassword,
  useUpdateAccount,
} from './accounts.hooks';
import { CopyValue } from './CopyValue';
import { useFormat } from './format';
import { PasswordReveal } from './PasswordReveal';
import { relayAddress, str2strInput } from './relay';
import { UsageList } from './UsageList';

type Tab = 'connection' | 'usage' | 'manage';

/** Host, port, username, mountpoints and a ready client line, each with its copy control. */
export function ConnectionDetails({ account }: { account: NtripAccount }) {
  const { t } = useTranslation('accounts');
  const relay = relayAddress();
  const mountpoints = useMountpoints(account.id);
  const first = mountpoints.data?.[0]?.mountpoint;
  return (
    <div className="flex flex-col gap-4">
      <div className="grid gap-3 sm:grid-cols-2">
        <CopyValue label={t('details.host')} value={relay.host} copyLabel={t('details.copyHost')} />
        <CopyValue label={t('details.port')} value={String(relay.port)} copyLabel={t('details.copyPort')} />
        <CopyValue label={t('details.username')} value={account.username} copyLabel={t('details.copyUsername')} />
        <div className="flex flex-col gap-1">
          <span className="text-xs font-medium text-subtle">{t('details.password')}</span>
          <span className="py-2 text-sm text-muted">{t('details.passwordHidden')}</span>
        </div>
      </div>
      <section className="flex flex-col gap-2" aria-label={t('details.mountpoints')}>
        <h3 className="text-sm font-semibold text-ink">{t('details.mountpoints')}</h3>
        <p className="text-xs text-muted">{t('details.mountpointsHint')}</p>
        {mountpoints.data && mountpoints.data.length === 0 && (
          <p className="rounded-xl border border-dashed border-line px-4 py-4 text-sm text-muted">
            {t('details.noMountpoints')}
          </p>
        )}
        <ul className="flex max-h-64 flex-col gap-1 overflow-y-auto">
          {mountpoints.data?.map((m) => (
            <li
              key={m.mountpoint}
              className="flex items-center gap-2 rounded-lg border border-line bg-raised py-1 pr-1 pl-3 text-sm"
            >
              <code className="font-mono text-ink">{m.mountpoint}</code>
              <span className="min-w-0 flex-1 truncate text-xs text-subtle">
                {m.kind === 'near' ? `${m.networkName} · ${t('details.nearest')}` : m.identifier}
                {!m.online && ` · ${t('details.offline')}`}
              </span>
              <CopyControl value={m.mountpoint} label={t('details.copyMountpoint', { mountpoint: m.mountpoint })} />
            </li>
          ))}
        </ul>
      </section>
      {first && (
        <section className="flex flex-col gap-1">
          <CopyValue
            label={t('details.str2str')}
            value={str2strInput({ ...relay, username: account.username, mountpoint: first })}
            copyLabel={t('details.copyLine')}
            testId="str2str-line"
          />
          <p className="text-xs text-muted">
            {t('details.str2strHint', {
              path: str2strInput({ ...relay, username: account.username, mountpoint: first }),
            })}
          </p>
        </section>
      )}
      <section className="rounded-xl border border-line bg-raised/50 p-3">
        <h3 className="text-sm font-semibold text-ink">{t('details.versionsTitle')}</h3>
        <p className="mt-1 text-xs text-muted">{t('details.versions')}</p>
        <p className="mt-1 text-xs text-muted">{t('details.maxConnections', { count: account.maxConnections })}</p>
      </section>
    </div>
  );
}

function ManagePanel({ account }: { account: NtripAccount }) {
  const { t } = useTranslation('accounts');
  const modal = useModal();
  const update = useUpdateAccount();
  const regenerate = useRegeneratePassword();
  const remove = useDeleteAccount();
  const reopen = () =>
    modal.open(({ close }) => <AccountDetails accountId={account.id} onClose={close} initialTab="manage" />, {
      large: true,
    });
  return (
    <div className="flex flex-col gap-4">
      <ToggleSwitch
        label={t('details.enabledLabel')}
        checked={account.enabled}
        disabled={update.isPending}
        onChange={(enabled) => update.mutate({ id: account.id, body: { enabled } })}
      />
      {update.isError && (
        <p role="alert" className="text-sm text-status-red">
          {t('actionFailed')}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          onClick={() => modal.open(({ close }) => <RenameDialog account={account} onClose={close} />)}
        >
          {t('actions.rename')}
        </Button>
        <Button
          variant="secondary"
          onClick={() =>
            modal.open(({ close }) => (
              <ConfirmDialog
                title={t('regenerate.title', { name: account.label })}
                confirmText={t('regenerate.confirm')}
                onClose={reopen}
                onConfirm={async () => {
                  const result = await regenerate.mutateAsync(account.id);
                  modal.open(<PasswordReveal result={result} created={false} onDone={close} />);
                }}
              >
                {t('regenerate.text')}
              </ConfirmDialog>
            ))
          }
        >
          {t('actions.regenerate')}
        </Button>
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
      </div>
    </div>
  );
}

/** One account in the modal: connection details, its usage, and the account actions. */
export function AccountDetails({
  accountId,
  onClose,
  initialTab = 'connection',
}: {
  accountId: string;
  onClose: () => void;
  initialTab?: Tab;
}) {
  const { t } = useTranslation('accounts');
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
          { value: 'manage', label: t('details.tabs.manage') },
        ]}
      />
      {tab === 'connection' && <ConnectionDetails account={account} />}
      {tab === 'usage' && <UsageList account={account} />}
      {tab === 'manage' && <ManagePanel account={account} />}
    </div>
  );
}
