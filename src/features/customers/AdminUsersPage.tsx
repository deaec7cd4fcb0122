import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '../../components/Button';
import { CardSection } from '../../components/CardSection';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { TextField } from '../../components/form';
import { useModal } from '../../components/modal';
import { Page } from '../../components/Page';
import { apiError } from '../../lib/api';
import { useFormat } from '../../lib/format';
import { UserPicker } from '../users/UserPicker';
import { useAdminUsers, usePatchAdminUser } from '../users/users.hooks';

const PAGE_SIZE = 50;

/** /admin/users: search everyone, open a customer's page, disable or enable (after a confirmation). */
export function AdminUsersPage() {
  const { t } = useTranslation('users');
  const { t: tc } = useTranslation();
  const format = useFormat();
  const modal = useModal();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  const deferredSearch = useDeferredValue(search.trim());
  const users = useAdminUsers({ ...(deferredSearch && { search: deferredSearch }), limit: PAGE_SIZE, offset });
  const patch = usePatchAdminUser();
  const total = users.data?.total ?? 0;

  return (
    <Page name="admin-users" title={tc('pages.adminUsers.title')} subtitle={tc('pages.adminUsers.description')}>
      <UserPicker
        label={t('picker.open')}
        value={null}
        onChange={(user) => user && navigate(`/admin/users/${user.id}`)}
        className="max-w-md"
      />
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
          editAction: () => navigate(`/admin/users/${u.id}`),
          records: {
            email: u.email ?? '—',
            role: u.isAdmin ? t('roles.admin') : t('roles.user'),
            status: u.disabled ? t('status.disabled') : t('status.active'),
            created: format.date(u.createdAt),
          },
          actionButton: {
            text: u.disabled ? t('actions.enable') : t('actions.disable'),
            color: u.disabled ? 'green' : 'red',
            action: () => {
              const key = u.disabled ? 'enable' : 'disable';
              modal.open(({ close }) => (
                <ConfirmDialog
                  danger={!u.disabled}
                  title={t(`customer.flags.${key}Title`, { name: u.email ?? u.id })}
                  confirmText={t(`customer.flags.${key}`)}
                  onClose={close}
                  onConfirm={async () => {
                    await patch.mutateAsync({ userId: u.id, patch: { disabled: !u.disabled } });
                    close();
                  }}
                >
                  {t(`customer.flags.${key}Text`)}
                </ConfirmDialog>
              ));
            },
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
