import type { AdminUser } from '@portal/contract';
import { type FormEvent, useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { CardSection } from '../../components/CardSection';
import { TextField, ToggleSwitch } from '../../components/form';
import { ModalTitle, useModal } from '../../components/modal';
import { Page } from '../../components/Page';
import { apiError } from '../../lib/api';
import { useUser } from '../auth/auth-context';
import { useGrantTokens } from '../billing/billing.hooks';
import { useAdminUsers, usePatchAdminUser } from './users.hooks';

const PAGE_SIZE = 50;

function ManageUserDialog({ user, close }: { user: AdminUser; close: () => void }) {
  const { t } = useTranslation('users');
  const me = useUser();
  const patch = usePatchAdminUser();
  const grant = useGrantTokens();
  const [isAdmin, setIsAdmin] = useState(user.isAdmin);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const tokens = Number.parseInt(amount, 10);
  const self = me?.email !== undefined && me.email === user.email;

  const submitGrant = (event: FormEvent) => {
    event.preventDefault();
    grant.mutate(
      { userId: user.id, tokenAmount: tokens, reason: reason.trim() },
      {
        onSuccess: () => {
          setAmount('');
          setReason('');
        },
      },
    );
  };

  return (
    <div className="flex flex-col gap-5">
      <ModalTitle>{user.displayName ?? user.email ?? user.id}</ModalTitle>
      <p className="text-sm text-muted">{user.email}</p>
      <ToggleSwitch
        label={t('manage.admin')}
        checked={isAdmin}
        disabled={self || patch.isPending}
        onChange={(next) => {
          setIsAdmin(next);
          patch.mutate({ userId: user.id, patch: { isAdmin: next } });
        }}
      />
      {self && <p className="text-xs text-muted">{t('manage.notSelf')}</p>}
      <form onSubmit={submitGrant} className="flex flex-wrap items-end gap-3 border-t border-line pt-5">
        <TextField
          label={t('manage.grantLabel')}
          inputMode="numeric"
          value={amount}
          onChange={(event) => setAmount(event.target.value.replace(/[^\d-]/g, ''))}
          className="min-w-40 flex-1"
          hint={grant.isSuccess ? t('manage.granted') : t('manage.grantHint')}
          error={grant.isError ? (apiError(grant.error)?.message ?? t('manage.grantFailed')) : undefined}
        />
        <TextField
          label={t('manage.reasonLabel')}
          value={reason}
          maxLength={200}
          onChange={(event) => setReason(event.target.value)}
          className="min-w-40 flex-1"
        />
        <Button
          type="submit"
          disabled={!Number.isInteger(tokens) || tokens === 0 || reason.trim().length < 3 || grant.isPending}
        >
          {t('manage.grant')}
        </Button>
      </form>
      <Button variant="secondary" onClick={close}>
        {t('manage.close')}
      </Button>
    </div>
  );
}

/** /admin/users: search everyone, disable or enable, make admins, grant tokens (PUT /admin/tokens). */
export function AdminUsersPage() {
  const { t } = useTranslation('users');
  const { t: tc, i18n } = useTranslation();
  const modal = useModal();
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  const deferredSearch = useDeferredValue(search.trim());
  const users = useAdminUsers({ ...(deferredSearch && { search: deferredSearch }), limit: PAGE_SIZE, offset });
  const patch = usePatchAdminUser();
  const total = users.data?.total ?? 0;

  return (
    <Page name="admin-users" title={tc('pages.adminUsers.title')} subtitle={tc('pages.adminUsers.description')}>
      <TextField
        label={t('search')}
        icon="search"
        placeholder={tc('cardSection.search')}
        value={search}
        onChange={(event) => {
          setSearch(event.target.value);
          setOffset(0);
        }}
        className="max-w-md"
      />
      <CardSection
        defaultView="list"
        columns={[
          { key: 'email', header: t('columns.email') },
          { key: 'role', header: t('columns.role') },
          { key: 'status', header: t('columns.status'), colored: true },
          { key: 'created', header: t('columns.created') },
        ]}
        emptyText={users.isLoading ? t('loading') : t('empty')}
        rows={(users.data?.items ?? []).map((u) => ({
          id: u.id,
          name: u.displayName ?? u.email ?? u.id,
          status: u.disabled ? 'red' : 'green',
          editAction: () => modal.open(({ close }) => <ManageUserDialog user={u} close={close} />),
          records: {
            email: u.email ?? '—',
            role: u.isAdmin ? t('roles.admin') : t('roles.user'),
            status: u.disabled ? t('status.disabled') : t('status.active'),
            created: new Date(u.createdAt).toLocaleDateString(i18n.language),
          },
          actionButton: {
            text: u.disabled ? t('actions.enable') : t('actions.disable'),
            color: u.disabled ? 'green' : 'red',
            action: () => patch.mutate({ userId: u.id, patch: { disabled: !u.disabled } }),
          },
        }))}
      />
      {patch.isError && <p className="text-sm text-status-red">{apiError(patch.error)?.message}</p>}
      <nav aria-label={t('paging')} className="flex items-center justify-between text-sm text-muted">
        <span>{t('showing', { from: total ? offset + 1 : 0, to: Math.min(offset + PAGE_SIZE, total), total })}</span>
        <span className="flex gap-2">
          <Button size="sm" variant="secondary" disabled={offset === 0} onClick={() => setOffset(offset - PAGE_SIZE)}>
            {t('previous')}
          </Button>
          <Button
            size="sm"
            variant="secondary"
            disabled={offset + PAGE_SIZE >= total}
            onClick={() => setOffset(offset + PAGE_SIZE)}
          >
            {t('next')}
          </Button>
        </span>
      </nav>
    </Page>
  );
}
