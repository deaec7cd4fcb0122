import type { CreateProduct, Interval, Product } from '@portal/contract';
import { type FormEvent, useState } from 'react';
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
import { apiError } from '../../lib/api';
import { useFormat } from '../../lib/format';
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

function ProductForm({ page, product, close }: { page: ProductPage; product?: Product; close: () => void }) {
  const { t } = useTranslation('billing');
  const format = useFormat();
  const { create, update } = useProductMutations();
  const spec = PRODUCT_PAGES[page];
  const [name, setName] = useState(product?.name ?? '');
  const [description, setDescription] = useState(product?.description ?? '');
  const [pricingTable, setPricingTable] = useState(product?.pricingTable ?? (spec.kind === 'token' ? 'Tokens' : 'RTK'));
  const [price, setPrice] = useState(product ? format.amountInput(product.amount) : '');
  const [currency, setCurrency] = useState<(typeof CURRENCIES)[number]>(product?.currency ?? 'EUR');
  const [interval, setInterval] = useState<Interval>(product?.interval ?? 'MONTHLY');
  const [credits, setCredits] = useState(String(product?.creditsAmount ?? ''));
  const [attributes, setAttributes] = useState((product?.attributes ?? []).join('\n'));
  const dutch = product?.translations.nl;
  const [nameNl, setNameNl] = useState(dutch?.name ?? '');
  const [descriptionNl, setDescriptionNl] = useState(dutch?.description ?? '');
  const [attributesNl, setAttributesNl] = useState((dutch?.attributes ?? []).join('\n'));
  const [networkIds, setNetworkIds] = useState<string[]>(product?.networkIds ?? []);
  const networks = useNetworks('admin');
  const [bestChoice, setBestChoice] = useState(product?.bestChoice ?? false);
  const [testMode, setTestMode] = useState(product?.testMode ?? false);
  const [previewMode, setPreviewMode] = useState(product?.previewMode ?? false);
  const [error, setError] = useState<string>();
  const amount = toMinor(price);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (amount === undefined) return setError(t('products.invalidPrice'));
    const common = {
      name,
      description,
      pricingTable,
      amount,
      currency,
      bestChoice,
      testMode,
      previewMode,
      attributes: lines(attributes),
      networkIds,
      translations: { nl: { name: nameNl, description: descriptionNl, attributes: lines(attributesNl) } },
    };
    const onError = (e: unknown) => setError(apiError(e)?.message ?? t('buy.errorText'));
    if (product) {
      update.mutate(
        {
          id: product.id,
          body: {
            ...common,
            ...(spec.kind === 'subscription' ? { interval } : { creditsAmount: Number(credits) }),
          },
        },
        { onSuccess: close, onError },
      );
    } else {
      const body: CreateProduct =
        spec.kind === 'subscription'
          ? { kind: 'subscription', interval, billable: spec.billable ?? true, ...common }
          : { kind: 'token', creditsAmount: Number(credits), ...common };
      create.mutate(body, { onSuccess: close, onError });
    }
  };

  return (
    <form className="flex flex-col gap-3" onSubmit={submit} data-testid="product-form">
      <ModalTitle>{product ? t('products.edit') : t('products.create')}</ModalTitle>
      <TextField label={t('products.name')} value={name} onChange={(e) => setName(e.target.value)} required />
      <TextField
        label={t('products.description')}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
      />
      <TextField
        label={t('products.pricingTable')}
        value={pricingTable}
        onChange={(e) => setPricingTable(e.target.value)}
        required
      />
      <div className="grid grid-cols-2 gap-3">
        <TextField
          label={t('products.price')}
          value={price}
          inputMode="decimal"
          onChange={(e) => setPrice(e.target.value)}
          hint={amount !== undefined ? format.money(amount, currency) : undefined}
          required
        />
        <SelectField
          label={t('products.currency')}
          value={currency}
          options={CURRENCIES.map((c) => ({ value: c, label: c }))}
          onChange={(e) => setCurrency(e.target.value as (typeof CURRENCIES)[number])}
        />
      </div>
      {spec.kind === 'subscription' ? (
        <SelectField
          label={t('products.interval')}
          value={interval}
          options={INTERVALS.map((i) => ({ value: i, label: t(`interval.${i}`) }))}
          onChange={(e) => setInterval(e.target.value as Interval)}
        />
      ) : (
        <TextField
          label={t('products.credits')}
          value={credits}
          inputMode="numeric"
          onChange={(e) => setCredits(e.target.value)}
          required
        />
      )}
      <AttributesField label={t('products.attributes')} value={attributes} onChange={setAttributes} />
      <TextField
        label={t('products.nameNl')}
        value={nameNl}
        onChange={(e) => setNameNl(e.target.value)}
        hint={t('products.translationHint')}
      />
      <TextField
        label={t('products.descriptionNl')}
        value={descriptionNl}
        onChange={(e) => setDescriptionNl(e.target.value)}
      />
      <AttributesField label={t('products.attributesNl')} value={attributesNl} onChange={setAttributesNl} />
      {spec.kind === 'subscription' && (
        <fieldset className="flex flex-col gap-1.5">
          <legend className="text-sm font-medium text-muted">{t('products.networks')}</legend>
          {(networks.data ?? [])
            .filter((n) => n.status !== 'retired' || networkIds.includes(n.id))
            .map((n) => (
              <Checkbox
                key={n.id}
                label={n.name}
                checked={networkIds.includes(n.id)}
                onChange={(e) =>
                  setNetworkIds((ids) => (e.target.checked ? [...ids, n.id] : ids.filter((id) => id !== n.id)))
                }
              />
            ))}
        </fieldset>
      )}
      <Checkbox
        label={t('products.bestChoice')}
        checked={bestChoice}
        onChange={(e) => setBestChoice(e.target.checked)}
      />
      <Checkbox label={t('products.testMode')} checked={testMode} onChange={(e) => setTestMode(e.target.checked)} />
      <Checkbox
        label={t('products.previewMode')}
        checked={previewMode}
        onChange={(e) => setPreviewMode(e.target.checked)}
      />
      {error && (
        <p role="alert" className="text-sm text-status-red">
          {error}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={close}>
          {t('actions.cancel')}
        </Button>
        <Button type="submit" disabled={create.isPending || update.isPending}>
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
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <label className="flex flex-col gap-1.5 text-sm font-medium text-muted">
      {label}
      <textarea
        className="min-h-20 rounded-lg border border-line-strong bg-raised p-2 text-ink"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}
