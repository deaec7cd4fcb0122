import { BILLING_COUNTRIES, type BillingDetails, billingDetailsInputSchema } from '@portal/contract';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { SelectField, TextField } from '../../components/form';
import { useFormat } from '../../lib/format';
import { useZodForm } from '../../lib/forms/useZodForm';
import { useBillingDetails, useSaveBillingDetails } from './invoicing.hooks';

type Fields = {
  companyName: string;
  addressLine1: string;
  addressLine2: string;
  postalCode: string;
  city: string;
  country: string;
  vatNumber: string;
  invoiceEmail: string;
};

const fromDetails = (d: BillingDetails | null | undefined): Fields => ({
  companyName: d?.companyName ?? '',
  addressLine1: d?.addressLine1 ?? '',
  addressLine2: d?.addressLine2 ?? '',
  postalCode: d?.postalCode ?? '',
  city: d?.city ?? '',
  country: d?.country ?? 'NL',
  vatNumber: d?.vatNumber ?? '',
  invoiceEmail: d?.invoiceEmail ?? '',
});

/** Country names in the page's language, sorted by them. */
export function useCountryOptions() {
  const format = useFormat();
  return useMemo(
    () =>
      BILLING_COUNTRIES.map((code) => ({ value: code, label: format.region(code) })).sort((a, b) =>
        format.compare(a.label, b.label),
      ),
    [format],
  );
}

/**
 * Company, address, VAT number and invoice e-mail for the caller or an organisation (`orgId`). Checked with the
 * same schema the server uses; the server's 400 names the field, shown under it.
 */
export function BillingDetailsForm({ orgId, readOnly = false }: { orgId?: string; readOnly?: boolean }) {
  const { t } = useTranslation('billing');
  const details = useBillingDetails(orgId);
  return (
    <section data-testid="billing-details" className="rounded-2xl border border-line bg-panel p-4 sm:p-6">
      <h2 className="text-base font-semibold text-ink">{t('details.title')}</h2>
      <p className="mt-1 text-sm text-muted">{orgId ? t('details.organizationIntro') : t('details.intro')}</p>
      {/* The inputs start from what is stored; until it is read they start empty, as they always did. */}
      <DetailsForm
        key={details.data ? 'stored' : 'empty'}
        orgId={orgId}
        readOnly={readOnly}
        stored={details.data?.details}
      />
    </section>
  );
}

function DetailsForm({
  orgId,
  readOnly,
  stored,
}: {
  orgId?: string;
  readOnly: boolean;
  stored?: BillingDetails | null;
}) {
  const { t } = useTranslation('billing');
  const save = useSaveBillingDetails(orgId);
  const countries = useCountryOptions();
  const [saved, setSaved] = useState(false);
  const form = useZodForm({
    initialValues: fromDetails(stored),
    schema: billingDetailsInputSchema,
    submit: (body) => {
      setSaved(false);
      return save.mutateAsync(body);
    },
    // The inputs show what was stored, as the server normalised it (a VAT number without spaces), so the
    // stored-number hint applies to them.
    onSuccess: (answer) => {
      form.reset(fromDetails(answer.details));
      setSaved(true);
    },
    ns: 'billing',
    keys: 'details.invalid',
    failedText: t('buy.errorText'),
  });
  const { values: fields, errors } = form;
  const set = (key: keyof Fields) => (value: string) => {
    form.set(key)(value);
    setSaved(false);
  };

  const field = (key: keyof Fields, extra: Partial<Parameters<typeof TextField>[0]> = {}) => (
    <TextField
      label={t(`details.${key}`)}
      name={key}
      value={fields[key]}
      onChange={(e) => set(key)(e.target.value)}
      error={errors[key]}
      disabled={readOnly}
      {...extra}
    />
  );

  return (
    <form onSubmit={form.handleSubmit} noValidate className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2">
      {field('companyName', { autoComplete: 'organization' })}
      {field('invoiceEmail', { type: 'email', autoComplete: 'email' })}
      {field('addressLine1', { autoComplete: 'address-line1' })}
      {field('addressLine2', { autoComplete: 'address-line2' })}
      {field('postalCode', { autoComplete: 'postal-code' })}
      {field('city', { autoComplete: 'address-level2' })}
      <SelectField
        label={t('details.country')}
        name="country"
        value={fields.country}
        onChange={(e) => set('country')(e.target.value)}
        options={countries}
        disabled={readOnly}
      />
      {field('vatNumber', {
        hint:
          stored?.vatNumber && stored.vatNumber === fields.vatNumber
            ? t(stored.vatVerified ? 'details.vatVerified' : 'details.vatUnverified')
            : t('details.vatHint'),
      })}
      {!readOnly && (
        <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
          <Button type="submit" disabled={form.pending}>
            {t('actions.save')}
          </Button>
          {form.general ? (
            <span role="alert" className="text-sm text-status-red">
              {form.general}
            </span>
          ) : (
            saved && (
              <span role="status" className="text-sm text-status-green">
                {t('details.saved')}
              </span>
            )
          )}
        </div>
      )}
    </form>
  );
}
