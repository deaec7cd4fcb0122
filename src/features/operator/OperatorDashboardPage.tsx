import type { OperatorDashboard } from '@portal/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { CardSection } from '../../components/CardSection';
import { Page } from '../../components/Page';
import { StatCard } from '../../components/StatCard';
import { type Formatter, useFormat } from '../../lib/format';
import { DayChart, type DaySeries } from './DayChart';
import { useOperatorDashboard } from './operator.api';

type Money = OperatorDashboard['revenue'];

const moneyText = (format: Formatter, list: Money) =>
  list.length === 0 ? format.money(0, 'EUR') : list.map((m) => format.money(m.amount, m.currency)).join(' · ');

/** The currencies that appear anywhere in the window, so each gets its own revenue line. */
const currenciesOf = (data: OperatorDashboard) =>
  [...new Set(data.days.flatMap((d) => [...d.revenue, ...d.refunds].map((m) => m.currency)))].sort();

const amountIn = (list: Money, currency: string) => list.find((m) => m.currency === currency)?.amount ?? 0;

function Charts({ data }: { data: OperatorDashboard }) {
  const { t } = useTranslation('admin');
  const { money: formatMoney } = useFormat();
  const days = useMemo(() => data.days.map((d) => d.day), [data]);
  const currency = currenciesOf(data)[0] ?? 'EUR';
  const money = useMemo<DaySeries[]>(
    () => [
      {
        label: t('operator.revenue'),
        color: '--color-accent',
        values: data.days.map((d) => amountIn(d.revenue, currency)),
      },
      {
        label: t('operator.refunds'),
        color: '--color-status-red',
        values: data.days.map((d) => amountIn(d.refunds, currency)),
      },
    ],
    [data, currency, t],
  );
  const tokens = useMemo<DaySeries[]>(
    () => [
      { label: t('operator.tokensSold'), color: '--color-status-blue', values: data.days.map((d) => d.tokensSold) },
      { label: t('operator.tokensSpent'), color: '--color-status-yellow', values: data.days.map((d) => d.tokensSpent) },
    ],
    [data, t],
  );
  const formatAmount = useMemo(() => (v: number) => formatMoney(Math.round(v), currency), [formatMoney, currency]);
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <section className="min-w-0 rounded-2xl border border-line bg-panel p-4">
        <h2 className="mb-2 text-sm font-semibold text-ink">{t('operator.moneyChart', { currency })}</h2>
        <DayChart days={days} series={money} label={t('operator.moneyChart', { currency })} format={formatAmount} />
      </section>
      <section className="min-w-0 rounded-2xl border border-line bg-panel p-4">
        <h2 className="mb-2 text-sm font-semibold text-ink">{t('operator.tokensChart')}</h2>
        <DayChart days={days} series={tokens} label={t('operator.tokensChart')} />
      </section>
    </div>
  );
}

/** /admin/dashboard: the operator's figures, from the portal's own tables and the casters' live state. */
export function OperatorDashboardPage() {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const dashboard = useOperatorDashboard();
  const data = dashboard.data;
  const n = format.number;

  return (
    <Page
      name="admin-dashboard"
      title={t('operator.title')}
      subtitle={data ? t('operator.subtitle', { days: data.windowDays, at: format.time(data.generatedAt) }) : undefined}
    >
      {dashboard.isError && <p className="text-sm text-status-red">{t('loadFailed')}</p>}
      {data && (
        <>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4" data-testid="operator-stats">
            <StatCard title={t('operator.activeSubscriptions')} value={n(data.activeSubscriptions)} />
            <StatCard
              title={t('operator.mrr')}
              value={moneyText(format, data.monthlyRecurringRevenue)}
              hint={t('operator.mrrHint')}
            />
            <StatCard
              title={t('operator.revenueWindow', { days: data.windowDays })}
              value={moneyText(format, data.revenue)}
              hint={t('operator.refundsLine', { amount: moneyText(format, data.refunds) })}
            />
            <StatCard
              title={t('operator.tokensWindow', { days: data.windowDays })}
              value={t('operator.tokensValue', { sold: n(data.tokensSold), spent: n(data.tokensSpent) })}
            />
            <StatCard
              title={t('operator.rovers')}
              value={n(data.roversConnected)}
              status={{ from: 'green', to: data.liveComplete ? 'green' : 'yellow' }}
              hint={data.liveComplete ? undefined : t('operator.liveIncomplete')}
            />
            <StatCard
              title={t('operator.stations')}
              value={t('operator.stationsValue', { online: n(data.stationsWithData), total: n(data.stations) })}
            />
          </div>
          <Charts data={data} />
          <CardSection
            title={t('operator.perNetwork')}
            defaultView="list"
            nameHeader={t('operator.network')}
            columns={[
              { key: 'subscriptions', header: t('operator.activeSubscriptions') },
              { key: 'mrr', header: t('operator.mrr') },
              { key: 'tokens', header: t('operator.tokensSpentWindow', { days: data.windowDays }) },
              { key: 'rovers', header: t('operator.rovers') },
              { key: 'stations', header: t('operator.stations') },
            ]}
            emptyText={t('operator.noNetworks')}
            rows={data.networks.map((network) => ({
              id: network.id,
              name: network.name,
              records: {
                subscriptions: n(network.activeSubscriptions),
                mrr: moneyText(format, network.monthlyRecurringRevenue),
                tokens: n(network.tokensSpent),
                rovers: n(network.roversConnected),
                stations: t('operator.stationsValue', {
                  online: n(network.stationsWithData),
                  total: n(network.stations),
                }),
              },
            }))}
          />
        </>
      )}
    </Page>
  );
}
