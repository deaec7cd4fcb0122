import type { InvoiceKind } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { CardSection } from '../../components/CardSection';
import { SelectField, TextField } from '../../components/form';
import { GenericErrorBlock } from '../../components/GenericErrorBlock';
import { Page } from '../../components/Page';
import { Preloader } from '../../components/Preloader';
import { useFormat } from '../../lib/format';
import { download, downloadInvoicePdf } from './invoicing.api';
import { useAdminInvoices } from './invoicing.hooks';

/** Date filters of the admin lists; an empty one is no bound. */
export function DateRange({
  from,
  to,
  onChange,
}: {
  from: string;
  to: string;
  onChange: (range: { from: string; to: string }) => void;
}) {
  const { t } = useTranslation('billing');
  return (
    <>
      <TextField
        label={t('filters.from')}
        type="date"
        value={from}
        onChange={(e) => onChange({ from: e.target.value, to })}
      />
      <TextField
        label={t('filters.to')}
        type="date"
        value={to}
        onChange={(e) => onChange({ from, to: e.target.value })}
      />
    </>
  );
}

/** /admin/settings/invoices: every invoice and credit note, filtered, as PDFs and as CSV for accounting. */
export function AdminInvoicesPage() {
  const { t } = useTranslation('billing');
  const format = useFormat();
  const [kind, setKind] = useState<InvoiceKind | ''>('');
  const [range, setRange] = useState({ from: '', to: '' });
  const [q, setQ] = useState('');
  const query = {
    ...(kind && { kind }),
    ...(range.from && { from: range.from }),
    ...(range.to && { to: range.to }),
    ...(q.trim() && { q: q.trim() }),
  };
  const invoices = useAdminInvoices(query);
  return (
    <Page name="admin-settings-invoices" title={t('adminInvoices.title')} subtitle={t('adminInvoices.subtitle')}>
      <div className="grid grid-cols-1 items-end gap-3 sm:grid-cols-2 lg:grid-cols-5">
        <SelectField
          label={t('invoices.columns.kind')}
          value={kind}
          onChange={(e) => setKind(e.target.value as InvoiceKind | '')}
          options={[
            { value: '', label: t('filters.all') },
            { value: 'invoice', label: t('invoices.kind.invoice') },
            { value: 'credit_note', label: t('invoices.kind.credit_note') },
          ]}
        />
        <DateRange from={range.from} to={range.to} onChange={setRange} />
        <TextField label={t('filters.search')} icon="search" value={q} onChange={(e) => setQ(e.target.value)} />
        <Button
          variant="secondary"
          onClick={() => void download('/admin/invoices', { ...query, format: 'csv' }, 'invoices.csv')}
        >
          {t('filters.csv')}
        </Button>
      </div>
      {invoices.isPending ? (
        <Preloader />
      ) : invoices.isError ? (
        <GenericErrorBlock />
      ) : (
        <CardSection
          defaultView="list"
          rows={invoices.data.map((i) => ({
            id: i.id,
            name: i.number,
            status: i.kind === 'invoice' ? 'green' : 'blue',
            records: {
              kind: t(`invoices.kind.${i.kind}`),
              date: format.date(i.issuedAt),
              buyer: [i.buyerName, i.buyerCountry].filter(Boolean).join(' · '),
              total: format.money(i.totalAmount, i.currency),
              tax: i.reverseCharge ? t('invoices.reverseCharge') : format.money(i.taxAmount, i.currency),
            },
            actionButton: {
              text: t('invoices.download'),
              color: 'green' as const,
              action: () => void downloadInvoicePdf(i.id, i.number),
            },
          }))}
          columns={[
            { key: 'kind', header: t('invoices.columns.kind') },
            { key: 'date', header: t('columns.date') },
            { key: 'buyer', header: t('invoices.columns.buyer') },
            { key: 'total', header: t('columns.amount') },
            { key: 'tax', header: t('invoices.columns.tax') },
          ]}
          emptyText={t('adminInvoices.none')}
        />
      )}
    </Page>
  );
}
