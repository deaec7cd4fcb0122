import type { NtripAccount } from '@portal/contract';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Button } from '../../components/Button';
import { type CardRow, CardSection } from '../../components/CardSection';
import { Icon } from '../../components/Icon';
import { useModal } from '../../components/modal';
import { Page } from '../../components/Page';
import { Preloader } from '../../components/Preloader';
import type { StatusColor } from '../../components/StatCard';
import { AccountDetails } from './AccountDetails';
import { CreateAccountDialog, RenameDialog } from './AccountDialogs';
import { ActivateTokensDialog } from './ActivateTokensDialog';
import { useAccounts } from './accounts.hooks';
import { useFormat } from './format';

const statusColor: Record<NtripAccount['status'], StatusColor> = {
  active: 'green',
  no_access: 'yellow',
  disabled: 'red',
};

/** /accounts: the user's NTRIP accounts in the card section, with create, activate, details and actions. */
export function AccountsPage() {
  const { t } = useTranslation('accounts');
  const format = useFormat();
  const modal = useModal();
  const accounts = useAccounts();

  const openCreate = () => modal.open(({ close }) => <CreateAccountDialog onClose={close} />, { large: true });
  // `/accounts?create=1` (the 'create NTRIP accounts' quick link) opens the create dialog, once per visit.
  const [params, setParams] = useSearchParams();
  const createRequested = params.has('create');
  const handled = useRef(false);
  const openCreateRef = useRef(openCreate);
  openCreateRef.current = openCreate;
  useEffect(() => {
    if (!createRequested || handled.current) return;
    handled.current = true;
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.delete('create');
        return next;
      },
      { replace: true },
    );
    openCreateRef.current();
  }, [createRequested, setParams]);
  const openActivate = (accountId?: string) =>
    modal.open(({ close }) => <ActivateTokensDialog accountId={accountId} onClose={close} />);
  const openDetails = (account: NtripAccount) =>
    modal.open(({ close }) => <AccountDetails accountId={account.id} onClose={close} />, { large: true });

  const networks = (account: NtripAccount) => {
    if (account.grants.length === 0) return t('networksNone');
    const now = Date.now();
    return account.grants
      .map((g) =>
        Date.parse(g.validFrom) > now
          ? t('networkFrom', {
              network: g.networkName,
              from: format.date(g.validFrom),
              date: format.date(g.validUntil),
            })
          : t('networkUntil', { network: g.networkName, date: format.dateTime(g.validUntil) }),
      )
      .join(', ');
  };
  const connection = (account: NtripAccount) =>
    account.connectedNow > 0 ? (
      <span className="text-status-green">{t('connectedNow', { count: account.connectedNow })}</span>
    ) : account.lastSeenAt ? (
      t('lastSeen', { date: format.dateTime(account.lastSeenAt) })
    ) : (
      t('neverConnected')
    );

  const rows: CardRow[] = (accounts.data ?? []).map((account) => ({
    id: account.id,
    name: account.label,
    status: statusColor[account.status],
    editAction: () => modal.open(({ close }) => <RenameDialog account={account} onClose={close} />),
    records: {
      username: <span className="font-mono">{account.username}</span>,
      status: t(`status.${account.status}`),
      networks: <span title={networks(account)}>{networks(account)}</span>,
      connection: connection(account),
    },
    actionButton: { text: t('actions.details'), action: () => openDetails(account), color: 'green' },
  }));

  return (
    <Page
      name="accounts"
      title={t('title')}
      subtitle={t('subtitle')}
      actions={
        <>
          <Button variant="secondary" onClick={() => openActivate()} disabled={!accounts.data?.length}>
            <Icon name="coins" size={16} />
            {t('actions.activate')}
          </Button>
          <Button onClick={openCreate}>
            <Icon name="key" size={16} />
            {t('actions.create')}
          </Button>
        </>
      }
    >
      {accounts.isPending ? (
        <Preloader />
      ) : accounts.isError ? (
        <p role="alert" className="rounded-2xl border border-status-red/40 bg-status-red/10 p-4 text-sm text-ink">
          {t('loadError')}
        </p>
      ) : (
        <CardSection
          title={t('sectionTitle')}
          rows={rows}
          columns={[
            { key: 'username', header: t('columns.username') },
            { key: 'status', header: t('columns.status'), colored: true },
            { key: 'networks', header: t('columns.networks') },
            { key: 'connection', header: t('columns.connection') },
          ]}
          filter={(row, query) => {
            const q = query.toLowerCase();
            const account = accounts.data?.find((a) => a.id === row.id);
            return row.name.toLowerCase().includes(q) || !!account?.username.toLowerCase().includes(q);
          }}
          emptyText={t('empty')}
        />
      )}
    </Page>
  );
}
