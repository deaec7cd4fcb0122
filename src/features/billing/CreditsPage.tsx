import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { CardSection } from '../../components/CardSection';
import { GenericErrorBlock } from '../../components/GenericErrorBlock';
import { Page } from '../../components/Page';
import { Preloader } from '../../components/Preloader';
import { StatCard } from '../../components/StatCard';
import { useFormat } from '../../lib/format';
import { useNetworks } from '../catalogue/catalogue.hooks';
import { useTokenHistory, useTokenProducts } from './billing.hooks';
import { ledgerNote } from './ledger-note';
import { PricingTables } from './PricingGrid';
import { usePricingModal } from './PricingModal';
import { useTokenMoney } from './token-money';

/** The tokens the page says the worth of: the smallest pack of the demo, a round number. */
const EXAMPLE_TOKENS = 100;

/** What a hundred tokens cost and buy: days of access on each network (issue 32). */
function WhatTokensBuy() {
  const { t } = useTranslation('billing');
  const networks = useNetworks('public');
  const { money } = useTokenMoney();
  const priced = (networks.data ?? []).filter((n) => n.status !== 'retired' && n.tokenPricePerDay > 0);
  const inMoney = money(EXAMPLE_TOKENS);
  if (priced.length === 0 || !inMoney) return null;
  return (
    <section className="flex flex-col gap-2 rounded-2xl border border-line bg-panel p-4" data-testid="what-tokens-buy">
      <h2 className="text-base font-semibold text-ink">
        {t('credits.whatTheyBuy', { count: EXAMPLE_TOKENS, money: inMoney })}
      </h2>
      <ul className="flex flex-col gap-1 text-sm text-muted">
        {priced.map((n) => (
          <li key={n.id}>
            {t('credits.daysOn', {
              count: Math.floor(EXAMPLE_TOKENS / n.tokenPricePerDay),
              network: n.name,
              perDay: n.tokenPricePerDay,
            })}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** /credits: the token balance, its history (the ledger), what tokens buy and token packs to buy. */
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
                note: ledgerNote(e, t, format.dateTime),
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
      <WhatTokensBuy />
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
