import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { CardSection } from '../../components/CardSection';
import { GenericErrorBlock } from '../../components/GenericErrorBlock';
import { Page } from '../../components/Page';
import { Preloader } from '../../components/Preloader';
import { StatCard } from '../../components/StatCard';
import { useFormat } from '../../lib/format';
import { useTokenHistory, useTokenProducts } from './billing.hooks';
import { PricingTables } from './PricingGrid';
import { usePricingModal } from './PricingModal';

/** /credits: the token balance, its history (the ledger) and token packs to buy. */
export function CreditsPage() {
  const { t } = useTranslation('billing');
  const history = useTokenHistory();
  const products = useTokenProducts();
  const pricing = usePricingModal();
  const format = useFormat();

  return (
    <Page
      name="credits"
      title={t('credits.title')}
      subtitle={t('credits.subtitle')}
      actions={
        <Button onClick={() => pricing.openTokens()} data-testid="open-token-pricing">
          {t('credits.buyMore')}
        </Button>
      }
    >
      {history.isPending ? (
        <Preloader />
      ) : history.isError ? (
        <GenericErrorBlock />
      ) : (
        <>
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            <StatCard
              title={t('credits.balance')}
              value={<span data-testid="credits-balance">{history.data.tokenAmount}</span>}
            />
          </div>
          <CardSection
            title={t('credits.history')}
            defaultView="list"
            rows={history.data.entries.map((e) => ({
              id: e.id,
              name: t(`ledger.${e.kind}`),
              status: e.delta > 0 ? 'green' : 'red',
              records: {
                delta: e.delta > 0 ? `+${e.delta}` : String(e.delta),
                balance: String(e.balanceAfter),
                date: format.dateTime(e.createdAt),
                note: e.note ?? '',
              },
            }))}
            columns={[
              { key: 'delta', header: t('columns.change'), colored: true },
              { key: 'balance', header: t('columns.balanceAfter') },
              { key: 'date', header: t('columns.date') },
              { key: 'note', header: t('columns.note') },
            ]}
            emptyText={t('credits.noHistory')}
          />
        </>
      )}
      <section className="flex flex-col gap-4">
        <h2 className="text-base font-semibold text-ink">{t('credits.packs')}</h2>
        {products.isPending ? (
          <Preloader />
        ) : products.isError ? (
          <GenericErrorBlock />
        ) : (
          <PricingTables tables={products.data} />
        )}
      </section>
    </Page>
  );
}
