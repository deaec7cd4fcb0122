import type { PricingProduct } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/Icon';
import { useFormat } from '../../lib/format';
import { BuyButton } from './BuyButton';
import { useTaxInfo } from './invoicing.hooks';

export function PriceTag({ amount, currency }: { amount: number; currency: string }) {
  const format = useFormat();
  return <span data-testid="price">{format.money(amount, currency)}</span>;
}

/** Spec §3 pricing card: name, price, interval or credits, badges (recommended, test mode), attributes, Buy. */
export function PricingCard({ product, onOpened }: { product: PricingProduct; onOpened?: () => void }) {
  const { t } = useTranslation('billing');
  const taxInfo = useTaxInfo();
  return (
    <article
      className={`relative flex flex-col gap-4 rounded-xl border bg-surface p-5 ${product.bestChoice ? 'border-accent shadow-lg shadow-accent/10' : 'border-line'}`}
      aria-label={product.name}
      data-testid="pricing-card"
    >
      <div className="flex flex-wrap gap-2">
        {product.bestChoice && (
          <span
            className="rounded-full bg-accent px-2.5 py-0.5 text-xs font-semibold text-on-accent"
            data-testid="badge-recommended"
          >
            {t('card.recommended')}
          </span>
        )}
        {product.testMode && (
          <span
            className="rounded-full bg-status-yellow/15 px-2.5 py-0.5 text-xs font-semibold text-status-yellow"
            data-testid="badge-test-mode"
          >
            {t('card.testMode')}
          </span>
        )}
      </div>
      <div>
        <h3 className="text-lg font-semibold text-ink">{product.name}</h3>
        {product.description && <p className="mt-1 text-sm text-muted">{product.description}</p>}
      </div>
      <p className="text-3xl font-bold tracking-tight text-ink">
        <PriceTag amount={product.amount} currency={product.currency} />
        {product.interval && (
          <span className="ml-1 text-sm font-normal text-muted">{t(`card.per.${product.interval}`)}</span>
        )}
        {taxInfo.data && (
          <span className="ml-1 text-xs font-normal text-muted" data-testid="price-tax">
            {t(taxInfo.data.pricesIncludeTax ? 'priceTax.included' : 'priceTax.excluded')}
          </span>
        )}
      </p>
      {product.creditsAmount !== undefined && (
        <p className="text-sm font-medium text-ink">{t('card.tokens', { count: product.creditsAmount })}</p>
      )}
      {product.attributes.length > 0 && (
        <ul className="flex flex-col gap-2 text-sm text-ink">
          {product.attributes.map((attribute) => (
            <li key={attribute} className="flex items-start gap-2">
              <Icon name="check" size={16} className="mt-0.5 shrink-0 text-accent" />
              <span>{attribute}</span>
            </li>
          ))}
        </ul>
      )}
      <div className="mt-auto pt-2">
        <BuyButton product={product} disabled={product.previewMode} onOpened={onOpened} />
      </div>
    </article>
  );
}
