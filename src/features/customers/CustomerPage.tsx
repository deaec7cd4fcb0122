import { type AdminCustomer, adminTokenGrantSchema } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FormDialogFooter } from '../../components/FormDialogFooter';
import { TextField } from '../../components/form';
import { GenericErrorBlock } from '../../components/GenericErrorBlock';
import { ModalTitle, useModal } from '../../components/modal';
import { Page } from '../../components/Page';
import { Preloader } from '../../components/Preloader';
import { StatCard } from '../../components/StatCard';
import { useFormat } from '../../lib/format';
import { useZodForm } from '../../lib/forms/useZodForm';
import { useUser } from '../auth/auth-context';
import { useGrantTokens } from '../billing/billing.hooks';
import { downloadInvoicePdf } from '../billing/invoicing.api';
import { ledgerNote } from '../billing/ledger-note';
import { CreateNtripAccountDialog } from '../users/CreateNtripAccountDialog';
import { customerKey, useCustomer, usePatchAdminUser, useSetVatVerified } from '../users/users.hooks';
import { AdminNtripAccountCard } from './AdminNtripAccountCard';

function Section({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <section
      aria-label={title}
      className="flex min-w-0 flex-col gap-3 rounded-2xl border border-line bg-panel p-4 sm:p-5"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-base font-semibold text-ink">{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

const Empty = ({ children }: { children: ReactNode }) => (
  <p className="rounded-xl border border-dashed border-line px-4 py-5 text-center text-sm text-muted">{children}</p>
);

/** Grant (positive) or take back (negative) tokens, with the reason the customer and the audit log will see. */
function TokensDialog({ customer, onClose }: { customer: AdminCustomer; onClose: () => void }) {
  const { t } = useTranslation('users');
  const client = useQueryClient();
  const grant = useGrantTokens();
  const [confirming, setConfirming] = useState(false);
  const form = useZodForm({
    initialValues: { amount: '', reason: '' },
    schema: adminTokenGrantSchema,
    toBody: (v) => ({
      userId: customer.user.id,
      tokenAmount: /^-?\d+$/.test(v.amount) ? Number.parseInt(v.amount, 10) : Number.NaN,
      reason: v.reason.trim(),
    }),
    submit: async (body) => {
      await grant.mutateAsync(body);
      await client.invalidateQueries({ queryKey: customerKey(customer.user.id) });
    },
    onSuccess: onClose,
    ns: 'users',
    failedText: t('manage.grantFailed'),
  });
  const { amount, reason } = form.values;
  const tokens = Number.parseInt(amount, 10);
  const after = customer.tokenAmount + (Number.isInteger(tokens) ? tokens : 0);
  const submit = (event: FormEvent) => {
    if (confirming) return form.handleSubmit(event);
    event.preventDefault();
    setConfirming(true);
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-4">
      <ModalTitle>{t('customer.tokens.dialogTitle')}</ModalTitle>
      {confirming ? (
        <p className="text-sm text-ink" data-testid="grant-confirmation">
          {tokens > 0
            ? t('customer.tokens.confirmGrant', { count: tokens, before: customer.tokenAmount, after })
            : t('customer.tokens.confirmTake', { count: -tokens, before: customer.tokenAmount, after })}
          <br />
          <span className="text-muted">{t('customer.tokens.reasonIs', { reason: reason.trim() })}</span>
        </p>
      ) : (
        <>
          <TextField
            label={t('customer.tokens.amount')}
            inputMode="numeric"
            value={amount}
            onChange={(e) => form.set('amount')(e.target.value.replace(/[^\d-]/g, ''))}
            hint={t('manage.grantHint')}
            error={after < 0 ? t('customer.tokens.belowZero', { balance: customer.tokenAmount }) : undefined}
            data-autofocus
          />
          <TextField
            label={t('manage.reasonLabel')}
            value={reason}
            maxLength={200}
            onChange={(e) => form.set('reason')(e.target.value)}
            hint={t('customer.tokens.reasonHint')}
          />
        </>
      )}
      <FormDialogFooter
        error={form.general}
        onCancel={confirming ? () => setConfirming(false) : onClose}
        submitLabel={confirming ? t('customer.tokens.confirm') : t('customer.tokens.next')}
        submitDisabled={!form.valid || after < 0 || form.pending}
      />
    </form>
  );
}

/** Make or remove admin, disable or enable: each behind a confirmation, each audited by the server. */
function FlagActions({ customer }: { customer: AdminCustomer }) {
  const { t } = useTranslation('users');
  const me = useUser();
  const modal = useModal();
  const patch = usePatchAdminUser();
  const { user } = customer;
  if (me?.email && me.email === user.email) return <p className="text-sm text-muted">{t('manage.notSelf')}</p>;
  const confirm = (key: string, change: { isAdmin?: boolean; disabled?: boolean }, danger = false) =>
    modal.open(({ close }) => (
      <ConfirmDialog
        danger={danger}
        title={t(`customer.flags.${key}Title`, { name: user.email ?? user.id })}
        confirmText={t(`customer.flags.${key}`)}
        onClose={close}
        onConfirm={async () => {
          await patch.mutateAsync({ userId: user.id, patch: change });
          close();
        }}
      >
        {t(`customer.flags.${key}Text`)}
      </ConfirmDialog>
    ));
  return (
    <>
      {user.isAdmin ? (
        <Button variant="secondary" onClick={() => confirm('removeAdmin', { isAdmin: false })}>
          {t('customer.flags.removeAdmin')}
        </Button>
      ) : (
        <Button variant="secondary" onClick={() => confirm('makeAdmin', { isAdmin: true })}>
          {t('customer.flags.makeAdmin')}
        </Button>
      )}
      {user.disabled ? (
        <Button variant="secondary" onClick={() => confirm('enable', { disabled: false })}>
          {t('customer.flags.enable')}
        </Button>
      ) : (
        <Button variant="danger" onClick={() => confirm('disable', { disabled: true }, true)}>
          {t('customer.flags.disable')}
        </Button>
      )}
    </>
  );
}

/**
 * The customer's billing details; without a VAT registry an admin confirms the number after checking it (VIES, the
 * trade register), and only a confirmed number is reverse-charged (docs/adr/0061).
 */
function BillingDetailsSection({ customer }: { customer: AdminCustomer }) {
  const { t } = useTranslation('users');
  const setVerified = useSetVatVerified();
  const details = customer.billingDetails;
  return (
    <Section
      title={t('customer.billing.title')}
      actions={
        details?.vatNumber && (
          <Button
            size="sm"
            variant={details.vatVerified ? 'secondary' : 'primary'}
            disabled={setVerified.isPending}
            data-testid="vat-verify"
            onClick={() =>
              setVerified.mutate({
                userId: customer.user.id,
                vatNumber: details.vatNumber ?? '',
                verified: !details.vatVerified,
              })
            }
          >
            {details.vatVerified ? t('customer.billing.unverify') : t('customer.billing.verify')}
          </Button>
        )
      }
    >
      {!details ? (
        <Empty>{t('customer.billing.none')}</Empty>
      ) : (
        <div className="flex flex-col gap-1 text-sm" data-testid="customer-billing-details">
          {details.companyName && <span className="text-ink">{details.companyName}</span>}
          <span className="text-muted">
            {[details.addressLine1, details.addressLine2, `${details.postalCode} ${details.city}`, details.country]
              .filter(Boolean)
              .join(', ')}
          </span>
          {details.vatNumber && (
            <span className="text-ink">
              {t('customer.billing.vat', { number: details.vatNumber })}{' '}
              <span className={details.vatVerified ? 'text-status-green' : 'text-status-yellow'}>
                {details.vatVerified ? t('customer.billing.verified') : t('customer.billing.unverified')}
              </span>
            </span>
          )}
          {setVerified.isError && (
            <p role="alert" className="text-status-red">
              {t('customer.billing.failed')}
            </p>
          )}
        </div>
      )}
    </Section>
  );
}

/** /admin/users/{id}: one customer in one place, with the operator's everyday actions (issue 20). */
export function CustomerPage() {
  const { userId = '' } = useParams();
  const { t } = useTranslation('users');
  const { t: tb } = useTranslation('billing');
  const format = useFormat();
  const modal = useModal();
  const customer = useCustomer(userId);
  const data = customer.data;
  const title = data ? (data.user.displayName ?? data.user.email ?? data.user.id) : t('customer.title');

  return (
    <Page
      name="admin-customer"
      title={title}
      subtitle={
        data && (
          <span className="flex flex-wrap gap-x-3 gap-y-1">
            <span className="break-all">{data.user.email}</span>
            <span>{t('customer.joined', { date: format.date(data.user.createdAt) })}</span>
            {data.user.isAdmin && <span className="text-status-blue">{t('roles.admin')}</span>}
            {data.user.disabled && <span className="text-status-red">{t('status.disabled')}</span>}
          </span>
        )
      }
      actions={
        data && (
          <>
            <Button onClick={() => modal.open(({ close }) => <TokensDialog customer={data} onClose={close} />)}>
              {t('customer.tokens.action')}
            </Button>
            <FlagActions customer={data} />
          </>
        )
      }
    >
      <Link to="/admin/users" className="text-sm text-accent hover:underline">
        {t('customer.back')}
      </Link>
      {customer.isError ? (
        <GenericErrorBlock />
      ) : !data ? (
        <Preloader />
      ) : (
        <>
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
            <StatCard
              title={t('customer.tokens.balance')}
              value={<span data-testid="customer-balance">{data.tokenAmount}</span>}
            />
            <StatCard title={t('customer.ntrip.title')} value={data.ntripAccounts.length} />
            <StatCard
              title={t('customer.subscriptions.active')}
              value={data.subscriptions.filter((s) => s.status === 'active' || s.status === 'cancelling').length}
            />
          </div>

          <Section title={t('customer.tokens.ledger')}>
            {data.ledger.length === 0 ? (
              <Empty>{tb('credits.noHistory')}</Empty>
            ) : (
              <ul className="flex flex-col divide-y divide-line" data-testid="customer-ledger">
                {data.ledger.map((e) => (
                  <li key={e.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2 text-sm">
                    <span className="min-w-0 flex-1">
                      <span className="block text-ink">
                        {ledgerNote(e, tb, format.dateTime) || tb(`ledger.${e.kind}`, { defaultValue: e.kind })}
                      </span>
                      <span className="text-xs text-muted">
                        {format.dateTime(e.createdAt)} · {tb(`ledger.${e.kind}`, { defaultValue: e.kind })}
                      </span>
                    </span>
                    <span className={`tabular-nums ${e.delta > 0 ? 'text-status-green' : 'text-status-red'}`}>
                      {e.delta > 0 ? `+${e.delta}` : e.delta}
                    </span>
                    <span className="w-full text-right text-xs text-muted tabular-nums sm:w-24">
                      {t('customer.tokens.after', { balance: e.balanceAfter })}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </Section>

          <Section
            title={t('customer.ntrip.title')}
            actions={
              <Button
                size="sm"
                onClick={() =>
                  modal.open(({ close }) => <CreateNtripAccountDialog userId={data.user.id} onClose={close} />)
                }
              >
                {t('customer.ntrip.create')}
              </Button>
            }
          >
            {data.ntripAccounts.length === 0 ? (
              <Empty>{t('customer.ntrip.none')}</Empty>
            ) : (
              <ul className="grid grid-cols-1 gap-3 lg:grid-cols-2">
                {data.ntripAccounts.map((a) => (
                  <AdminNtripAccountCard key={a.id} account={a} />
                ))}
              </ul>
            )}
          </Section>

          <Section title={t('customer.subscriptions.title')}>
            {data.subscriptions.length === 0 ? (
              <Empty>{t('customer.subscriptions.none')}</Empty>
            ) : (
              <ul className="flex flex-col divide-y divide-line">
                {data.subscriptions.map((s) => (
                  <li key={s.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2 text-sm">
                    <span className="min-w-0 flex-1 truncate text-ink">{s.productName}</span>
                    <span className="text-muted">{tb(`status.${s.status}`, { defaultValue: s.status })}</span>
                    <span className="text-xs text-muted">
                      {t('customer.subscriptions.until', { date: format.date(s.currentPeriodEnd) })}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </Section>

          <BillingDetailsSection customer={data} />

          <Section title={t('customer.invoices.title')}>
            {data.invoices.length === 0 ? (
              <Empty>{t('customer.invoices.none')}</Empty>
            ) : (
              <ul className="flex flex-col divide-y divide-line">
                {data.invoices.map((i) => (
                  <li key={i.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2 text-sm">
                    <span className="min-w-0 flex-1">
                      <span className="block font-mono text-ink">{i.number}</span>
                      <span className="text-xs text-muted">
                        {format.date(i.issuedAt)} · {t(`customer.invoices.kinds.${i.kind}`)}
                      </span>
                    </span>
                    <span className="text-ink tabular-nums">{format.money(i.totalAmount, i.currency)}</span>
                    <Button size="sm" variant="secondary" onClick={() => void downloadInvoicePdf(i.id, i.number)}>
                      {t('customer.invoices.pdf')}
                    </Button>
                  </li>
                ))}
              </ul>
            )}
          </Section>

          <Section title={t('customer.organizations.title')}>
            {data.organizations.length === 0 ? (
              <Empty>{t('customer.organizations.none')}</Empty>
            ) : (
              <ul className="flex flex-col divide-y divide-line">
                {data.organizations.map((o) => (
                  <li key={o.id} className="flex flex-wrap items-baseline justify-between gap-x-4 py-2 text-sm">
                    <Link to={`/admin/organizations/${o.id}`} className="min-w-0 truncate text-accent hover:underline">
                      {o.name}
                    </Link>
                    <span className="text-muted">
                      {t(`customer.organizations.roles.${o.role}`, { defaultValue: o.role })}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </Section>
        </>
      )}
    </Page>
  );
}
