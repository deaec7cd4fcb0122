import type { PricingTable } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { PricingCard } from './PricingCard';
import { gridColumnsFor, pricingGridClass, sortByAmount } from './pricing';

/** A pricing table: its products sorted by amount ascending in 1–4 columns by product count (spec §9). */
export function PricingGrid({
  table,
  onOpened,
  showName = true,
}: {
  table: PricingTable;
  onOpened?: () => void;
  showName?: boolean;
}) {
  const products = sortByAmount(table.data);
  return (
    <section className="flex flex-col gap-3" aria-label={table.name}>
      {showName && <h3 className="text-base font-semibold text-ink">{table.name}</h3>}
      <div
        className={`grid gap-4 ${pricingGridClass(products.length)}`}
        data-testid="pricing-grid"
        data-columns={gridColumnsFor(products.length)}
      >
        {products.map((product) => (
          <PricingCard key={product.priceId} product={product} onOpened={onOpened} />
        ))}
      </div>
    </section>
  );
}

/** Every table, or a note when there is nothing for sale. */
export function PricingTables({ tables, onOpened }: { tables: PricingTable[]; onOpened?: () => void }) {
  const { t } = useTranslation('billing');
  const nonEmpty = tables.filter((table) => table.data.length > 0);
  if (nonEmpty.length === 0) return <p className="text-sm text-muted">{t('pricing.empty')}</p>;
  return (
    <div className="flex flex-col gap-8">
      {nonEmpty.map((table) => (
        <PricingGrid key={table.name} table={table} onOpened={onOpened} showName={nonEmpty.length > 1} />
      ))}
    </div>
  );
}
