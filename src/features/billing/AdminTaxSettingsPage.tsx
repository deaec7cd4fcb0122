import { BILLING_COUNTRIES, type TaxSettings, taxSettingsInputSchema } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { SelectField, TextField, ToggleSwitch } from '../../components/form';
import { GenericErrorBlock } from '../../components/GenericErrorBlock';
import { Page } from '../../components/Page';
import { Preloader } from '../../components/Preloader';
import { useZodForm } from '../../lib/forms/useZodForm';
import { useCountryOptions } from './BillingDetailsForm';
import { useSaveTaxSettings, useTaxSettings } from './invoicing.hooks';

type Seller = { [K in keyof TaxSettings['seller']]: string };
type RateRow = { key: number; country: string; percent: string };
type Fields = {
  seller: Seller;
  invoicePrefix: string;
  pricesIncludeTax: boolean;
  reverseCharge: boolean;
  stripeAutomaticTax: boolean;
  rates: RateRow[];
};
let nextRowKey = 0;

const percentOf = (bp: number) => (bp / 100).toString();
/** "21" or "5,5" percent as basis points; undefined when it is not a percentage with at most 2 decimals. */
const basisPoints = (text: string) => {
  const match = /^(\d{1,3})(?:[.,](\d{1,2}))?$/.exec(text.trim());
  return match ? Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0')) : undefined;
};

function TaxSettingsForm({ settings }: { settings: TaxSettings }) {
  const { t } = useTranslation('billing');
  const save = useSaveTaxSettings();
  const countries = useCountryOptions();
  const [saved, setSaved] = useState(false);
  const form = useZodForm({
    initialValues: {
      seller: {
        legalName: settings.seller.legalName,
        addressLine1: settings.seller.addressLine1,
        addressLine2: settings.seller.addressLine2 ?? '',
        postalCode: settings.seller.postalCode,
        city: settings.seller.city,
        country: settings.seller.country,
        vatNumber: settings.seller.vatNumber ?? '',
        email: settings.seller.email ?? '',
      },
      invoicePrefix: settings.invoicePrefix,
      pricesIncludeTax: settings.pricesIncludeTax,
      reverseCharge: settings.reverseCharge,
      stripeAutomaticTax: settings.stripeAutomaticTax,
      rates: settings.rates.map((r) => ({ key: nextRowKey++, country: r.country, percent: percentOf(r.rateBp) })),
    } as Fields,
    schema: taxSettingsInputSchema,
    toBody: ({ rates, ...rest }: Fields) => ({
      ...rest,
      // A rate that is no percentage is no number, so the schema refuses it with the rate's row.
      rates: rates.map((r) => ({ country: r.country, rateBp: basisPoints(r.percent) ?? Number.NaN })),
    }),
    submit: (body) => {
      setSaved(false);
      return save.mutateAsync(body);
    },
    onSuccess: () => setSaved(true),
    ns: 'billing',
    failedText: t('buy.errorText'),
  });
  const { values, errors, setValues } = form;
  const { seller, rates } = values;
  const setSeller = (key: keyof Seller) => (value: string) =>
    setValues((v) => ({ ...v, seller: { ...v.seller, [key]: value } }));
  const setRates = (update: (rates: RateRow[]) => RateRow[]) => setValues((v) => ({ ...v, rates: update(v.rates) }));

  const sellerField = (key: keyof Seller, extra: Partial<Parameters<typeof TextField>[0]> = {}) => (
    <TextField
      label={t(`tax.seller.${key}`)}
      value={seller[key]}
      onChange={(e) => setSeller(key)(e.target.value)}
      error={errors[`seller.${key}`]}
      {...extra}
    />
  );
  const unused = BILLING_COUNTRIES.find((c) => !rates.some((r) => r.country === c));

  return (
    <form onSubmit={form.handleSubmit} noValidate className="flex flex-col gap-6" data-testid="tax-settings">
      <section className="rounded-2xl border border-line bg-panel p-4 sm:p-6">
        <h2 className="text-base font-semibold text-ink">{t('tax.sellerTitle')}</h2>
        <p className="mt-1 text-sm text-muted">{t('tax.sellerIntro')}</p>
        <div className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2">
          {sellerField('legalName')}
          {sellerField('email', { type: 'email' })}
          {sellerField('addressLine1')}
          {sellerField('addressLine2')}
          {sellerField('postalCode')}
          {sellerField('city')}
          <SelectField
            label={t('tax.seller.country')}
            value={seller.country}
            options={countries}
            onChange={(e) => setSeller('country')(e.target.value)}
          />
          {sellerField('vatNumber')}
          <TextField
            label={t('tax.prefix')}
            value={values.invoicePrefix}
            onChange={(e) => form.set('invoicePrefix')(e.target.value.toUpperCase())}
            hint={t('tax.prefixHint', {
              example: `${values.invoicePrefix || 'INV'}-${new Date().getFullYear()}-000001`,
            })}
            error={errors.invoicePrefix}
          />
        </div>
      </section>

      <section className="flex flex-col gap-4 rounded-2xl border border-line bg-panel p-4 sm:p-6">
        <h2 className="text-base font-semibold text-ink">{t('tax.rulesTitle')}</h2>
        <ToggleSwitch
          label={t('tax.pricesIncludeTax')}
          checked={values.pricesIncludeTax}
          onChange={form.set('pricesIncludeTax')}
        />
        <ToggleSwitch
          label={t('tax.reverseCharge')}
          checked={values.reverseCharge}
          onChange={form.set('reverseCharge')}
        />
        <ToggleSwitch
          label={t('tax.automaticTax')}
          checked={values.stripeAutomaticTax}
          onChange={form.set('stripeAutomaticTax')}
        />
        <p className="text-sm text-muted">{t('tax.rulesHint')}</p>
      </section>

      <section className="flex flex-col gap-3 rounded-2xl border border-line bg-panel p-4 sm:p-6">
        <h2 className="text-base font-semibold text-ink">{t('tax.ratesTitle')}</h2>
        <p className="text-sm text-muted">{t('tax.ratesIntro')}</p>
        {rates.map((rate, index) => (
          <div key={rate.key} className="flex flex-wrap items-end gap-3">
            <SelectField
              className="min-w-40 flex-1"
              label={t('tax.country')}
              value={rate.country}
              options={countries}
              onChange={(e) =>
                setRates((rs) => rs.map((r, i) => (i === index ? { ...r, country: e.target.value } : r)))
              }
              aria-invalid={errors[`rates.${index}.country`] ? true : undefined}
            />
            <TextField
              className="w-28"
              label={t('tax.ratePercent')}
              inputMode="decimal"
              value={rate.percent}
              onChange={(e) =>
                setRates((rs) => rs.map((r, i) => (i === index ? { ...r, percent: e.target.value } : r)))
              }
              error={errors[`rates.${index}.rateBp`] && t('tax.invalidRate', { country: rate.country })}
            />
            <Button variant="ghost" onClick={() => setRates((rs) => rs.filter((_, i) => i !== index))}>
              {t('tax.removeRate')}
            </Button>
            {errors[`rates.${index}.country`] && (
              <p className="basis-full text-xs text-status-red">{errors[`rates.${index}.country`]}</p>
            )}
          </div>
        ))}
        {unused && (
          <div>
            <Button
              variant="secondary"
              onClick={() => setRates((rs) => [...rs, { key: nextRowKey++, country: unused, percent: '0' }])}
            >
              {t('tax.addRate')}
            </Button>
          </div>
        )}
      </section>

      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={form.pending}>
          {t('actions.save')}
        </Button>
        {(saved || form.general) && (
          <span role="status" className={`text-sm ${saved ? 'text-status-green' : 'text-status-red'}`}>
            {saved ? t('tax.saved') : form.general}
          </span>
        )}
      </div>
    </form>
  );
}

/** /admin/settings/tax-management: the seller on every invoice, tax rules and rates per country (docs/adr/0029). */
export function AdminTaxSettingsPage() {
  const { t } = useTranslation('billing');
  const settings = useTaxSettings();
  return (
    <Page name="admin-settings-tax" title={t('tax.title')} subtitle={t('tax.subtitle')}>
      {settings.isPending ? (
        <Preloader />
      ) : settings.isError ? (
        <GenericErrorBlock />
      ) : (
        <TaxSettingsForm settings={settings.data} />
      )}
    </Page>
  );
}
