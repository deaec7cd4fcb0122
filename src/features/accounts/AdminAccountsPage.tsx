import {
  type AdminNtripAccount,
  adminMaxConnectionsBodySchema,
  MAX_ACTIVATION_DAYS,
  MAX_MAX_CONNECTIONS,
  MIN_MAX_CONNECTIONS,
  manualGrantBodySchema,
  pageWindow,
} from '@portal/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../components/Button';
import { MessageDialog } from '../../components/dialogs';
import { FormDialogFooter } from '../../components/FormDialogFooter';
import { SelectField, TextField } from '../../components/form';
import { Icon } from '../../components/Icon';
import { ModalTitle, useModal } from '../../components/modal';
import { Page } from '../../components/Page';
import { Pager } from '../../components/Pager';
import { useFormat } from '../../lib/format';
import { useZodForm } from '../../lib/forms/useZodForm';
import { AdminRefusalsButton, LoginFailuresSection } from '../diagnostics/AdminDiagnostics';
import { AdminLiveSessionsSection } from '../diagnostics/LiveSessions';
import { CreateNtripAccountDialog } from '../users/CreateNtripAccountDialog';
import {
  useAdminAccounts,
  useAdminGrant,
  useAdminSetEnabled,
  useAdminSetMaxConnections,
  useNetworks,
} from './accounts.hooks';

const PAGE_SIZE = 25;

function ManualGrantDialog({ account, onClose }: { account: AdminNtripAccount; onClose: () => void }) {
  const { t } = useTranslation('accounts');
  const format = useFormat();
  const networks = useNetworks();
  const grant = useAdminGrant();
  const list = (networks.data ?? []).filter((n) => n.status !== 'retired');
  const form = useZodForm({
    initialValues: { networkId: '', days: '7' },
    schema: manualGrantBodySchema,
    toBody: (v) => ({ networkId: v.networkId || list[0]?.id || '', days: Number.parseInt(v.days, 10) }),
    submit: (body) => grant.mutateAsync({ id: account.id, body }),
  });
  const chosen = form.values.networkId || list[0]?.id || '';
  if (grant.isSuccess) {
    return (
      <MessageDialog
        icon="check"
        tone="green"
        title={t('admin.grantTitle', { name: account.username })}
        actions={<Button onClick={onClose}>{t('actions.done')}</Button>}
      >
        {t('admin.granted', { date: format.dateTime(grant.data.validUntil) })}
      </MessageDialog>
    );
  }
  return (
    <form onSubmit={form.handleSubmit} className="flex flex-col gap-4">
      <ModalTitle>{t('admin.grantTitle', { name: account.username })}</ModalTitle>
      <p className="text-sm text-muted">{t('admin.grantText')}</p>
      <SelectField
        label={t('activate.network')}
        value={chosen}
        onChange={(e) => form.set('networkId')(e.target.value)}
        options={list.map((n) => ({ value: n.id, label: n.name }))}
      />
      <TextField
        label={t('activate.days')}
        type="number"
        min={1}
        max={MAX_ACTIVATION_DAYS}
        value={form.values.days}
        onChange={(e) => form.set('days')(e.target.value)}
        error={form.errors.days}
        required
      />
      <FormDialogFooter
        error={form.general && t('actionFailed')}
        onCancel={onClose}
        submitLabel={t('admin.grantSubmit')}
        submitDisabled={!form.valid || form.pending}
      />
    </form>
  );
}

/** The caster refuses a rover past this limit; open connections stay when it is lowered. */
function MaxConnectionsDialog({ account, onClose }: { account: AdminNtripAccount; onClose: () => void }) {
  const { t } = useTranslation('accounts');
  const update = useAdminSetMaxConnections();
  const form = useZodForm({
    initialValues: { maxConnections: String(account.maxConnections) },
    schema: adminMaxConnectionsBodySchema,
    toBody: (v) => ({ maxConnections: Number(v.maxConnections) }),
    submit: (body) => update.mutateAsync({ id: account.id, body }),
    onSuccess: onClose,
  });
  const text = form.values.maxConnections;
  const bounds = { min: MIN_MAX_CONNECTIONS, max: MAX_MAX_CONNECTIONS };
  return (
    <form onSubmit={form.handleSubmit} className="flex flex-col gap-4">
      <ModalTitle>{t('admin.limitTitle', { name: account.username })}</ModalTitle>
      <p className="text-sm text-muted">{t('admin.limitText')}</p>
      <TextField
        label={t('admin.maxConnections')}
        type="number"
        min={MIN_MAX_CONNECTIONS}
        max={MAX_MAX_CONNECTIONS}
        step={1}
        value={text}
        onChange={(e) => form.set('maxConnections')(e.target.value)}
        hint={t('admin.limitBounds', bounds)}
        error={text !== '' && !form.valid ? t('admin.limitBounds', bounds) : undefined}
        required
        data-autofocus
      />
      <FormDialogFooter
        error={form.general && t('actionFailed')}
        onCancel={onClose}
        submitLabel={t('actions.save')}
        submitDisabled={!form.valid || form.pending}
      />
    </form>
  );
}

/** Columns that give way below md (375 px phones); the label sits under the username at every width. */
const wide = 'hidden md:table-cell';

function OwnerLink({ account }: { account: AdminNtripAccount }) {
  return (
    <Link to={`/admin/users/${account.ownerUserId}`} className="break-all text-accent hover:underline">
      {account.ownerEmail ?? account.ownerUserId}
    </Link>
  );
}

/** /admin/accounts: every NTRIP account with its owner; search, disable/enable, connections now and their limit, manual grant. */
export function AdminAccountsPage() {
  const { t } = useTranslation('accounts');
  const format = useFormat();
  const modal = useModal();
  const [input, setInput] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(input.trim());
      setPage(1);
    }, 300);
    return () => clearTimeout(timer);
  }, [input]);
  const accounts = useAdminAccounts({ search: search || undefined, ...pageWindow(page, PAGE_SIZE) });
  const setEnabled = useAdminSetEnabled();
  const total = accounts.data?.total ?? 0;

  return (
    <Page
      name="admin-accounts"
      title={t('admin.title')}
      subtitle={t('admin.subtitle')}
      actions={
        <Button onClick={() => modal.open(({ close }) => <CreateNtripAccountDialog onClose={close} />)}>
          {t('admin.createFor')}
        </Button>
      }
    >
      <div className="flex flex-wrap items-end justify-between gap-3">
        <TextField
          label={t('admin.searchLabel')}
          icon="search"
          type="search"
          value={input}
          onChange={(e) => setInput(e.target.value)}
          className="w-full sm:w-96"
        />
        <p className="text-sm text-muted">{t('admin.total', { count: total })}</p>
      </div>
      {setEnabled.isError && (
        <p role="alert" className="text-sm text-status-red">
          {t('actionFailed')}
        </p>
      )}
      {accounts.isError ? (
        <p role="alert" className="text-sm text-status-red">
          {t('loadError')}
        </p>
      ) : accounts.data && accounts.data.items.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-line px-6 py-10 text-center text-sm text-muted">
          {t('admin.empty')}
        </p>
      ) : (
        <div className="overflow-x-auto rounded-2xl border border-line bg-panel">
          <table className="w-full text-left text-sm" aria-busy={accounts.isFetching}>
            <thead className="border-b border-line text-xs tracking-wide text-subtle uppercase">
              <tr>
                <th className="px-4 py-3 font-medium">{t('columns.username')}</th>
                <th className="px-4 py-3 font-medium">{t('admin.owner')}</th>
                <th className="px-4 py-3 font-medium">{t('columns.status')}</th>
                <th className={`${wide} px-4 py-3 font-medium`}>{t('columns.networks')}</th>
                <th className={`${wide} px-4 py-3 font-medium`}>{t('admin.connections')}</th>
                <th className={`${wide} px-4 py-3 font-medium`}>{t('admin.maxConnections')}</th>
                <th className="px-4 py-3 font-medium">
                  <span className="sr-only">{t('actions.details')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {accounts.data?.items.map((a) => (
                <tr key={a.id} className="border-b border-line last:border-0">
                  <td className="px-4 py-3">
                    <span className="block font-mono break-all text-ink">{a.username}</span>
                    <span className="block text-xs text-muted">{a.label}</span>
                  </td>
                  <td className="px-4 py-3 text-muted">
                    <OwnerLink account={a} />
                  </td>
                  <td className="px-4 py-3 text-muted">{t(`status.${a.status}`)}</td>
                  <td className={`${wide} px-4 py-3 text-muted`}>
                    {a.grants.length === 0
                      ? t('networksNone')
                      : a.grants
                          .map((g) => t('networkUntil', { network: g.networkName, date: format.date(g.validUntil) }))
                          .join(', ')}
                  </td>
                  <td className={`${wide} px-4 py-3 text-muted tabular-nums`}>{a.connectedNow}</td>
                  <td className={`${wide} px-4 py-3 text-muted tabular-nums`}>
                    <div className="flex items-center gap-1">
                      {a.maxConnections}
                      <Button
                        size="sm"
                        variant="ghost"
                        className="px-2"
                        aria-label={`${t('admin.limitChange')} ${a.username}`}
                        title={t('admin.limitChange')}
                        onClick={() => modal.open(({ close }) => <MaxConnectionsDialog account={a} onClose={close} />)}
                      >
                        <Icon name="edit" size={14} aria-hidden="true" />
                      </Button>
                    </div>
                  </td>
                  <td className="px-4 py-3">
                    <div className="flex flex-wrap justify-end gap-2">
                      <Button
                        size="sm"
                        variant={a.enabled ? 'danger' : 'success'}
                        disabled={setEnabled.isPending}
                        aria-label={`${t(a.enabled ? 'actions.disable' : 'actions.enable')} ${a.username}`}
                        onClick={() => setEnabled.mutate({ id: a.id, enabled: !a.enabled })}
                      >
                        {t(a.enabled ? 'actions.disable' : 'actions.enable')}
                      </Button>
                      <Button
                        size="sm"
                        variant="secondary"
                        aria-label={`${t('admin.grant')} ${a.username}`}
                        onClick={() => modal.open(({ close }) => <ManualGrantDialog account={a} onClose={close} />)}
                      >
                        {t('admin.grant')}
                      </Button>
                      <AdminRefusalsButton account={a} />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} pageSize={PAGE_SIZE} total={total} onPage={setPage} label={t('admin.title')} />
      <AdminLiveSessionsSection />
      <LoginFailuresSection />
    </Page>
  );
}
