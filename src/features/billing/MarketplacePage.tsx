import { useTranslation } from 'react-i18next';
import { CardSection } from '../../components/CardSection';
import { Page } from '../../components/Page';
import { useFormat } from '../../lib/format';
import { CoverageView } from '../catalogue/CoverageView';
import { useNetworks } from '../catalogue/catalogue.hooks';
import { useReferenceFrameText } from '../catalogue/reference-frame';
import { useTokenMoney } from './token-money';

/**
 * /marketplace: the networks on offer and where they reach, for anyone, priced in tokens and in money (issue 32), with
 * what the token packs cost.
 */
export function MarketplacePage() {
  const { t } = useTranslation();
  const { t: tc } = useTranslation('catalogue');
  const networks = useNetworks('public');
  const frameText = useReferenceFrameText();
  const format = useFormat();
  const { packs, money } = useTokenMoney();
  const price = (tokens: number) => {
    const inMoney = money(tokens);
    return inMoney
      ? tc('marketplace.pricePerDayMoney', { count: tokens, money: inMoney })
      : tc('marketplace.pricePerDay', { count: tokens });
  };
  return (
    <Page name="marketplace" title={t('pages.marketplace.title')} subtitle={t('pages.marketplace.description')}>
      <CoverageView scope="public" />
      {networks.data && (
        <CardSection
          title={tc('marketplace.networks')}
          rows={networks.data.map((n) => ({
            id: n.id,
            name: n.name,
            status: n.status === 'active' ? 'green' : 'yellow',
            records: {
              region: n.region || '–',
              operator: n.operator || '–',
              frame: frameText(n.referenceFrame),
              stations: tc('marketplace.stationsOnline', { online: n.onlineStationCount, total: n.stationCount }),
              price: price(n.tokenPricePerDay),
            },
          }))}
          columns={[
            { key: 'region', header: tc('fields.region') },
            { key: 'operator', header: tc('fields.operator') },
            { key: 'frame', header: tc('fields.referenceFrame') },
            { key: 'stations', header: tc('fields.stations'), colored: true },
            { key: 'price', header: tc('fields.tokenPricePerDay') },
          ]}
          emptyText={tc('marketplace.empty')}
        />
      )}
      {packs.length > 0 && (
        <p className="text-sm text-muted" data-testid="token-packs">
          {tc('marketplace.packs', {
            packs: packs
              .map((p) => tc('marketplace.pack', { count: p.tokens, money: format.money(p.amount, p.currency) }))
              .join(', '),
          })}
        </p>
      )}
    </Page>
  );
}
