import {
  type CreateProduct,
  createProductSchema,
  type Interval,
  type Product,
  type UpdateProduct,
  updateProductSchema,
} from '@portal/contract';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router';
import { Button } from '../../components/Button';
import { CardSection } from '../../components/CardSection';
import { UnexpectedErrorDialog } from '../../components/dialogs';
import { Checkbox, SelectField, TextField } from '../../components/form';
import { GenericErrorBlock } from '../../components/GenericErrorBlock';
import { ModalTitle, useModal } from '../../components/modal';
import { Page } from '../../components/Page';
import { Preloader } from '../../components/Preloader';
import { TabSwitch } from '../../components/TabSwitch';
import { useFormat } from '../../lib/format';
import { useZodForm } from '../../lib/forms/useZodForm';
import { useNetworks } from '../catalogue/catalogue.hooks';
import { useAdminProducts, useProductMutations } from './billing.hooks';

/** The three admin product pages (spec §2): automated subscriptions, credits, manual subscriptions. */
export const PRODUCT_PAGES = {
  'billable-subscriptions': { kind: 'subscription', billable: true },
  credits: { kind: 'token', billable: undefined },
  'non-billable-subscriptions': { kind: 'subscription', billable: false },
} as const;
export type ProductPage = keyof typeof PRODUCT_PAGES;

const INTERVALS: Interval[] = ['WEEKLY', 'MONTHLY', 'YEARLY'];
const CURRENCIES = ['EUR', 'USD', 'GBP'] as const;

function toMinor(text: string): number | undefined {
  const match = /^(\d+)(?:[.,](\d{1,2}))?$/.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

type ProductFields = {
  name: string;
  description: string;
  pricingTable: string;
  price: string;
  currency: (typeof CURRENCIES)[number];
  interval: Interval;
  credits: string;
  attributes: string;
  nameNl: string;
  descriptionNl: string;
  attributesNl: string;
  includesRinex: boolean;
  networkIds: string[];
  bestChoice: boolean;
  testMode: boolean;
  previewMode: boolean;
};

function ProductForm({ page, product, close }: { page: ProductPage; product?: Product; close: () => void }) {
  const { t } = useTranslation('billing');
  const format = useFormat();
  const { create, update } = useProductMutations();
  const spec = PRODUCT_PAGES[page];
  const dutch = product?.translations.nl;
  const networks = useNetworks('admin');
  const form = useZodForm<ProductFields, typeof createProductSchema | typeof updateProductSchema>({
    initialValues: {
      name: product?.name ?? '',
      description: product?.description ?? '',
      pricingTable: product?.pricingTable ?? (spec.kind === 'token' ? 'Tokens' : 'RTK'),
      price: product ? format.amountInput(product.amount) : '',
      currency: product?.currency ?? 'EUR',
      interval: product?.interval ?? 'MONTHLY',
      credits: String(product?.creditsAmount ?? ''),
      attributes: (product?.attributes ?? []).join('\n'),
      nameNl: dutch?.name ?? '',
      descriptionNl: dutch?.description ?? '',
      attributesNl: (dutch?.attributes ?? []).join('\n'),
      includesRinex: product?.includesRinex ?? false,
      networkIds: product?.networkIds ?? [],
      bestChoice: product?.bestChoice ?? false,
      testMode: product?.testMode ?? false,
      previewMode: product?.previewMode ?? false,
    },
    schema: product ? updateProductSchema : createProductSchema,
    toBody: (v) => {
      const common = {
        name: v.name,
        description: v.description,
        pricingTable: v.pricingTable,
        amount: toMinor(v.price),
        currency: v.currency,
        bestChoice: v.bestChoice,
        testMode: v.testMode,
        previewMode: v.previewMode,
        attributes: lines(v.attributes),
        includesRinex: spec.kind === 'subscription' && v.includesRinex,
        networkIds: v.networkIds,
        translations: { nl: { name: v.nameNl, description: v.descriptionNl, attributes: lines(v.attributesNl) } },
      };
      const own = spec.kind === 'subscription' ? { interval: v.interval } : { creditsAmount: Number(v.credits) };
      if (product) return { ...common, ...own };
      return spec.kind === 'subscription'
        ? { kind: 'subscription', billable: spec.billable ?? true, ...own, ...common }
        : { kind: 'token', ...own, ...common };
    },
    // The body is the one the schema of the form's own case (edit or create) accepted.
    submit: (body) =>
      product
        ? update.mutateAsync({ id: product.id, body: body as UpdateProduct })
        : create.mutateAsync(body as CreateProduct),
    onSuccess: close,
    ns: 'billing',
    fieldTexts: { amount: t('products.invalidPrice') },
    failedText: t('buy.errorText'),
  });
  const { values, errors, set } = form;
  const amount = toMinor(values.price);

  return (
    <form className="flex flex-col gap-3" onSubmit={form.handleSubmit} noValidate data-testid="product-form">
      <ModalTitle>{product ? t('products.edit') : t('products.create')}</ModalTitle>
      <TextField
        label={t('products.name')}
        value={values.name}
        onChange={(e) => set('name')(e.target.value)}
        error={errors.name}
        required
      />
      <TextField
        label={t('products.description')}
        value={values.description}
        onChange={(e) => set('description')(e.target.value)}
        error={errors.description}
      />
      <TextField
        label={t('products.pricingTable')}
        value={values.pricingTable}
        onChange={(e) => set('pricingTable')(e.target.value)}
        error={errors.pricingTable}
        required
      />
      <div className="grid grid-cols-2 gap-3">
        <TextField
          label={t('products.price')}
          value={values.price}
          inputMode="decimal"
          onChange={(e) => set('price')(e.target.value)}
          hint={amount !== undefined ? format.money(amount, values.currency) : undefined}
          error={errors.amount}
          required
        />
        <SelectField
          label={t('products.currency')}
          value={values.currency}
          options={CURRENCIES.map((c) => ({ value: c, label: c }))}
          onChange={(e) => set('currency')(e.target.value as (typeof CURRENCIES)[number])}
        />
      </div>
      {spec.kind === 'subscription' ? (
        <SelectField
          label={t('products.interval')}
          value={values.interval}
          options={INTERVALS.map((i) => ({ value: i, label: t(`interval.${i}`) }))}
          onChange={(e) => set('interval')(e.target.value as Interval)}
        />
      ) : (
        <TextField
          label={t('products.credits')}
          value={values.credits}
          inputMode="numeric"
          onChange={(e) => set('credits')(e.target.value)}
          error={errors.creditsAmount}
          required
        />
      )}
      <AttributesField
        label={t('products.attributes')}
        value={values.attributes}
        onChange={set('attributes')}
        error={errors.attributes}
      />
      <TextField
        label={t('products.nameNl')}
        value={values.nameNl}
        onChange={(e) => set('nameNl')(e.target.value)}
        error={errors['translations.nl.name']}
        hint={t('products.translationHint')}
      />
      <TextField
        label={t('products.descriptionNl')}
        value={values.descriptionNl}
        onChange={(e) => set('descriptionNl')(e.target.value)}
        error={errors['translations.nl.description']}
      />
      <AttributesField
        label={t('products.attributesNl')}
        value={values.attributesNl}
        onChange={set('attributesNl')}
        error={errors['translations.nl.attributes']}
      />
      {spec.kind === 'subscription' && (
        <fieldset className="flex flex-col gap-1.5">
          <legend className="text-sm font-medium text-muted">{t('products.networks')}</legend>
          {(networks.data ?? [])
            .filter((n) => n.status !== 'retired' || values.networkIds.includes(n.id))
            .map((n) => (
              <Checkbox
                key={n.id}
                label={n.name}
                checked={values.networkIds.includes(n.id)}
                onChange={(e) =>
                  form.setValues((v) => ({
                    ...v,
                    networkIds: e.target.checked ? [...v.networkIds, n.id] : v.networkIds.filter((id) => id !== n.id),
                  }))
                }
              />
            ))}
        </fieldset>
      )}
      {spec.kind === 'subscription' && (
        <Checkbox
          label={t('products.includesRinex')}
          checked={values.includesRinex}
          onChange={(e) => set('includesRinex')(e.target.checked)}
        />
      )}
      <Checkbox
        label={t('products.bestChoice')}
        checked={values.bestChoice}
        onChange={(e) => set('bestChoice')(e.target.checked)}
      />
      <Checkbox
        label={t('products.testMode')}
        checked={values.testMode}
        onChange={(e) => set('testMode')(e.target.checked)}
      />
      <Checkbox
        label={t('products.previewMode')}
        checked={values.previewMode}
        onChange={(e) => set('previewMode')(e.target.checked)}
      />
      {form.general && (
        <p role="alert" className="text-sm text-status-red">
          {form.general}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={close}>
          {t('actions.cancel')}
        </Button>
        <Button type="submit" disabled={form.pending}>
          {t('actions.save')}
        </Button>
      </div>
    </form>
  );
}

/** /admin/products/{billable-subscriptions|credits|non-billable-subscriptions}: list, create, edit, archive. */
export function AdminProductsPage() {
  const { t } = useTranslation('billing');
  const format = useFormat();
  const { productsPage } = useParams();
  const navigate = useNavigate();
  const modal = useModal();
  const page = (productsPage ?? 'billable-subscriptions') as ProductPage;
  const spec = PRODUCT_PAGES[page];
  const products = useAdminProducts(spec ?? PRODUCT_PAGES['billable-subscriptions']);
  const { archive } = useProductMutations();
  if (!spec) return <Navigate to="/admin/products/billable-subscriptions" replace />;

  const openForm = (product?: Product) =>
    modal.open(({ close }) => <ProductForm page={page} product={product} close={close} />, { large: true });

  return (
    <Page
      name="admin-products"
      title={t(`products.pages.${page}`)}
      actions={
        <Button onClick={() => openForm()} data-testid="create-product">
          {t('products.create')}
        </Button>
      }
    >
      <TabSwitch
        key={page}
        label={t('products.title')}
        initial={page}
        options={(Object.keys(PRODUCT_PAGES) as ProductPage[]).map((p) => ({
          value: p,
          label: t(`products.pages.${p}`),
        }))}
        onChange={(p) => navigate(`/admin/products/${p}`)}
      />
      {products.isPending ? (
        <Preloader />
      ) : products.isError ? (
        <GenericErrorBlock />
      ) : (
        <CardSection
          rows={products.data.map((p) => ({
            id: p.id,
            name: p.name,
            editAction: () => openForm(p),
            status: p.previewMode ? 'yellow' : 'green',
            records: {
              price: format.money(p.amount, p.currency),
              detail:
                p.kind === 'token' ? t('card.tokens', { count: p.creditsAmount ?? 0 }) : t(`interval.${p.interval}`),
              table: p.pricingTable,
              priceId: <code className="text-xs">{p.priceId}</code>,
            },
            actionButton: {
              text: t('products.archive'),
              color: 'red',
              action: () =>
                archive.mutate(p.id, {
                  onError: () => modal.open(({ close }) => <UnexpectedErrorDialog onClose={close} />),
                }),
            },
          }))}
          filter={(row, q) => row.name.toLowerCase().includes(q.toLowerCase())}
          columns={[
            { key: 'price', header: t('columns.price') },
            { key: 'detail', header: t('columns.detail') },
            { key: 'table', header: t('products.pricingTable') },
            { key: 'priceId', header: 'priceId' },
          ]}
          emptyText={t('products.none')}
        />
      )}
    </Page>
  );
}

/** The product's attributes, one per line, as the pricing card lists them. */
function AttributesField({
  label,
  value,
  onChange,
  error,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label className="flex flex-col gap-1.5 text-sm font-medium text-muted">
        {label}
        <textarea
          className="min-h-20 rounded-lg border border-line-strong bg-raised p-2 text-ink"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
      </label>
      {error && (
        <p id={`${id}-error`} className="text-xs text-status-red">
          {error}
        </p>
      )}
    </div>
  );
}
