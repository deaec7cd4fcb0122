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
import { useFormat } from '../../lib/format';
import { useActiveOrganization } from '../auth/active-organization';
import { AccountDetails } from './AccountDetails';
import { CreateAccountDialog, RenameDialog } from './AccountDialogs';
import { ActivateTokensDialog, type ActivationSuggestion } from './ActivateTokensDialog';
import { useAccounts } from './accounts.hooks';
import type { ActivateFromCard } from './ConnectionCard';

const statusColor: Record<NtripAccount['status'], StatusColor> = {
  active: 'green',
  no_access: 'yellow',
  disabled: 'red',
};

/**
 * /accounts: the NTRIP accounts of the user, or of the organisation chosen in the switcher, in the card section, with
 * create, activate, details and actions. An organisation's plain members see its accounts; its owners and admins
 * make them and pay for them with the organisation's tokens (docs/adr/0026).
 */
export function AccountsPage() {
  const { t } = useTranslation('accounts');
  const format = useFormat();
  const modal = useModal();
  const accounts = useAccounts();
  const org = useActiveOrganization();
  const canManage = org?.role !== 'member';

  const openActivate = (accountId?: string, suggest?: ActivationSuggestion) =>
    modal.open(({ close }) => <ActivateTokensDialog accountId={accountId} suggest={suggest} onClose={close} />);
  const openDetails = (accountId: string, password?: string) =>
    modal.open(
      ({ close }) => (
        <AccountDetails accountId={accountId} onClose={close} password={password} onActivate={activateFromCard} />
      ),
      { large: true },
    );
  /** From an account's card: activate, then back to the card (with the password it showed, if any). */
  const activateFromCard = ({ accountId, position, password }: ActivateFromCard) =>
    modal.open(() => (
      <ActivateTokensDialog
        accountId={accountId}
        suggest={{ position }}
        onClose={() => openDetails(accountId, password)}
      />
    ));
  const openCreate = () =>
    modal.open(({ close }) => <CreateAccountDialog onClose={close} onActivate={activateFromCard} />, {
      large: true,
    });
  // `/accounts?create=1` (the 'create NTRIP accounts' quick link) opens the create dialog and
  // `/accounts?activate=1[&network=id]` (after buying tokens, or from a station) the activation, once per visit.
  const [params, setParams] = useSearchParams();
  const requested = params.has('create') ? 'create' : params.has('activate') ? 'activate' : null;
  const requestedNetwork = params.get('network') ?? undefined;
  const handled = useRef(false);
  const openRequested = useRef(() => {});
  openRequested.current = () =>
    requested === 'create' ? openCreate() : openActivate(undefined, { networkId: requestedNetwork });
  useEffect(() => {
    if (!requested || handled.current) return;
    handled.current = true;
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        for (const key of ['create', 'activate', 'network']) next.delete(key);
        return next;
      },
      { replace: true },
    );
    openRequested.current();
  }, [requested, setParams]);

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
    ...(canManage && {
      editAction: () => modal.open(({ close }) => <RenameDialog account={account} onClose={close} />),
    }),
    records: {
      username: <span className="font-mono">{account.username}</span>,
      ...(org && { holder: account.organization?.holderEmail ?? '' }),
      status: t(`status.${account.status}`),
      networks:
        account.status === 'no_access' ? (
          <span className="flex flex-wrap items-center gap-2" data-testid="no-access">
            <span className="text-status-yellow">{t('noAccessNow')}</span>
            {account.grants.length > 0 && <span>{networks(account)}</span>}
            {canManage && (
              <Button size="sm" variant="secondary" onClick={() => openActivate(account.id)}>
                {t('actions.activateShort')}
              </Button>
            )}
          </span>
        ) : (
          <span title={networks(account)}>{networks(account)}</span>
        ),
      connection: connection(account),
    },
    actionButton: { text: t('actions.details'), action: () => openDetails(account.id), color: 'green' },
  }));

  return (
    <Page
      name="accounts"
      title={t('title')}
      subtitle={
        org
          ? t(canManage ? 'organization.subtitleManage' : 'organization.subtitleMember', { name: org.name })
          : t('subtitle')
      }
      actions={
        canManage && (
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
        )
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
            ...(org ? [{ key: 'holder', header: t('columns.holder') }] : []),
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
