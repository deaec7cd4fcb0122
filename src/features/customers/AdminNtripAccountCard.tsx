import type { NtripAccount } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useModal } from '../../components/modal';
import { useFormat } from '../../lib/format';
import { UsageList } from '../accounts/UsageList';
import { LiveSessions } from '../diagnostics/LiveSessions';
import { RefusedAttempts } from '../diagnostics/RefusedAttempts';
import { PasswordOnce } from '../users/CreateNtripAccountDialog';
import { useDeleteNtripAccount, useResetNtripPassword } from '../users/users.hooks';

/**
 * One NTRIP account in the back office (a customer's or an organisation's): status, rovers now, access, and the
 * admin's actions (sessions, password reset, delete), each write behind a confirmation and audited by the server.
 */
export function AdminNtripAccountCard({ account }: { account: NtripAccount }) {
  const { t } = useTranslation('users');
  const { t: ta } = useTranslation('accounts');
  const format = useFormat();
  const modal = useModal();
  const reset = useResetNtripPassword();
  const remove = useDeleteNtripAccount();
  const [open, setOpen] = useState(false);
  const tone = { active: 'text-status-green', no_access: 'text-status-yellow', disabled: 'text-status-red' };
  return (
    <li
      className="flex min-w-0 flex-col gap-3 rounded-xl border border-line bg-raised p-4"
      data-testid="customer-ntrip"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="truncate font-medium text-ink">{account.label}</p>
          <p className="truncate font-mono text-xs text-muted">{account.username}</p>
        </div>
        <span className={`text-sm font-medium ${tone[account.status]}`}>{ta(`status.${account.status}`)}</span>
      </div>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        {account.organization && (
          <>
            <dt className="text-muted">{t('customer.ntrip.holder')}</dt>
            <dd className="min-w-0 break-all">
              <Link to={`/admin/users/${account.organization.holderUserId}`} className="text-accent hover:underline">
                {account.organization.holderEmail ?? account.organization.holderUserId}
              </Link>
            </dd>
          </>
        )}
        <dt className="text-muted">{t('customer.ntrip.connectedNow')}</dt>
        <dd className="text-ink tabular-nums">{account.connectedNow}</dd>
        <dt className="text-muted">{t('customer.ntrip.lastSeen')}</dt>
        <dd className="text-ink">{account.lastSeenAt ? format.dateTime(account.lastSeenAt) : '—'}</dd>
        <dt className="text-muted">{t('customer.ntrip.access')}</dt>
        <dd className="text-ink">
          {account.grants.length === 0
            ? ta('networksNone')
            : account.grants.map((g) => `${g.networkName} → ${format.date(g.validUntil)}`).join(', ')}
        </dd>
      </dl>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="secondary" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {open ? t('customer.ntrip.hideSessions') : t('customer.ntrip.sessions')}
        </Button>
        <Button
          size="sm"
          variant="secondary"
          onClick={() =>
            modal.open(({ close }) => (
              <ConfirmDialog
                title={t('customer.ntrip.resetTitle', { name: account.label })}
                confirmText={t('customer.ntrip.reset')}
                onClose={close}
                onConfirm={async () => {
                  const result = await reset.mutateAsync(account.id);
                  modal.open(({ close: done }) => (
                    <PasswordOnce result={result} onClose={done} title={t('customer.ntrip.resetDone')} />
                  ));
                }}
              >
                {t('customer.ntrip.resetText')}
              </ConfirmDialog>
            ))
          }
        >
          {t('customer.ntrip.reset')}
        </Button>
        <Button
          size="sm"
          variant="danger"
          onClick={() =>
            modal.open(({ close }) => (
              <ConfirmDialog
                danger
                title={t('customer.ntrip.deleteTitle', { name: account.label })}
                confirmText={t('customer.ntrip.delete')}
                onClose={close}
                onConfirm={async () => {
                  await remove.mutateAsync(account.id);
                  close();
                }}
              >
                {t('customer.ntrip.deleteText')}
              </ConfirmDialog>
            ))
          }
        >
          {t('customer.ntrip.delete')}
        </Button>
      </div>
      {open && (
        <div className="flex min-w-0 flex-col gap-5 border-t border-line pt-4">
          <LiveSessions accountId={account.id} admin />
          <UsageList account={account} admin />
          <RefusedAttempts accountId={account.id} admin />
        </div>
      )}
    </li>
  );
}
