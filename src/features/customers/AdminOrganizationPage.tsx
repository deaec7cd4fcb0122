import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { GenericErrorBlock } from '../../components/GenericErrorBlock';
import { useModal } from '../../components/modal';
import { Page } from '../../components/Page';
import { Preloader } from '../../components/Preloader';
import { useFormat } from '../../lib/format';
import { AdminNtripAccountCard } from './AdminNtripAccountCard';
import { useAdminOrganization, usePatchAdminOrganization } from './organizations.admin.api';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section
      aria-label={title}
      className="flex min-w-0 flex-col gap-3 rounded-2xl border border-line bg-panel p-4 sm:p-5"
    >
      <h2 className="text-base font-semibold text-ink">{title}</h2>
      {children}
    </section>
  );
}

const Row = ({ children }: { children: ReactNode }) => (
  <li className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2 text-sm">{children}</li>
);

/**
 * /admin/organizations/{id}: members and roles, invitations, subscriptions, NTRIP accounts with the admin's account
 * actions; disable or enable (issue 20).
 */
export function AdminOrganizationPage() {
  const { orgId = '' } = useParams();
  const { t } = useTranslation('organizations');
  const { t: tb } = useTranslation('billing');
  const format = useFormat();
  const modal = useModal();
  const detail = useAdminOrganization(orgId);
  const patch = usePatchAdminOrganization(orgId);
  const data = detail.data;
  const disabled = Boolean(data?.organization.disabledAt);

  const toggle = () =>
    modal.open(({ close }) => (
      <ConfirmDialog
        danger={!disabled}
        title={t(disabled ? 'admin.enableTitle' : 'admin.disableTitle', { name: data?.organization.name })}
        confirmText={t(disabled ? 'admin.enable' : 'admin.disable')}
        onClose={close}
        onConfirm={async () => {
          await patch.mutateAsync({ disabled: !disabled });
          close();
        }}
      >
        {t(disabled ? 'admin.enableText' : 'admin.disableText')}
      </ConfirmDialog>
    ));

  return (
    <Page
      name="admin-organization"
      title={data?.organization.name ?? t('admin.detailTitle')}
      subtitle={
        data && (
          <span className="flex flex-wrap gap-x-3">
            <span>{t('admin.createdOn', { date: format.date(data.organization.createdAt) })}</span>
            {data.organization.disabledAt && (
              <span className="text-status-red">
                {t('admin.disabledSince', { date: format.dateTime(data.organization.disabledAt) })}
              </span>
            )}
          </span>
        )
      }
      actions={
        data && (
          <Button variant={disabled ? 'secondary' : 'danger'} onClick={toggle}>
            {t(disabled ? 'admin.enable' : 'admin.disable')}
          </Button>
        )
      }
    >
      <Link to="/admin/organizations" className="text-sm text-accent hover:underline">
        {t('admin.back')}
      </Link>
      {detail.isError ? (
        <GenericErrorBlock />
      ) : !data ? (
        <Preloader />
      ) : (
        <>
          <Section title={t('admin.members')}>
            <ul className="flex flex-col divide-y divide-line">
              {data.members.map((m) => (
                <Row key={m.userId}>
                  <Link to={`/admin/users/${m.userId}`} className="min-w-0 break-all text-accent hover:underline">
                    {m.email ?? m.displayName ?? m.userId}
                  </Link>
                  <span className="text-muted">{t(`roles.${m.role}`)}</span>
                </Row>
              ))}
            </ul>
          </Section>
          <Section title={t('invites.title')}>
            {data.invites.length === 0 ? (
              <p className="text-sm text-muted">{t('invites.none')}</p>
            ) : (
              <ul className="flex flex-col divide-y divide-line">
                {data.invites.map((i) => (
                  <Row key={i.email}>
                    <span className="min-w-0 break-all text-ink">{i.email}</span>
                    <span className="text-muted">
                      {t(`invites.statuses.${i.status}`, { defaultValue: i.status })} · {format.date(i.createdAt)}
                    </span>
                  </Row>
                ))}
              </ul>
            )}
          </Section>
          <Section title={t('admin.subscriptions')}>
            {data.subscriptions.length === 0 ? (
              <p className="text-sm text-muted">{t('admin.noSubscriptions')}</p>
            ) : (
              <ul className="flex flex-col divide-y divide-line">
                {data.subscriptions.map((s) => (
                  <Row key={s.id}>
                    <span className="min-w-0 flex-1 truncate text-ink">{s.productName}</span>
                    <span className="text-muted">{tb(`status.${s.status}`, { defaultValue: s.status })}</span>
                    <span className="text-xs text-muted">
                      {t('admin.paidBy', { email: s.userEmail ?? '—', date: format.date(s.currentPeriodEnd) })}
                    </span>
                  </Row>
                ))}
              </ul>
            )}
          </Section>
          <Section title={t('admin.ntripAccounts')}>
            {data.ntripAccounts.length === 0 ? (
              <p className="text-sm text-muted">{t('admin.noNtripAccounts')}</p>
            ) : (
              <ul className="grid grid-cols-1 gap-3 lg:grid-cols-2">
                {data.ntripAccounts.map((a) => (
                  <AdminNtripAccountCard key={a.id} account={a} />
                ))}
              </ul>
            )}
          </Section>
        </>
      )}
    </Page>
  );
}
