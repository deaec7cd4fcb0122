import type { CreateRinexJobBody, RinexCharge, RinexSystem } from '@portal/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, ButtonLink } from '../../components/Button';
import { ModalTitle } from '../../components/modal';
import { apiError } from '../../lib/api';
import { useTokenMoney } from '../billing/token-money';
import { useTokenBalance } from '../billing/useTokenBalance';
import { useCreateRinexJob } from './rinex.hooks';

export interface RinexOrder {
  body: CreateRinexJobBody & { systems: RinexSystem[]; interval: number };
  hoursWithData: number;
  charge: RinexCharge;
  price: number;
  /** The window reaches into the hour being recorded. */
  recording: boolean;
}

const errorKeys: Record<string, string> = {
  too_many_rinex_jobs: 'buy.tooMany',
  no_data_in_window: 'availability.noData',
  rinex_not_for_sale: 'price.notForSale',
};

const utcTime = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;

/**
 * The purchase, as token activation shows it: price, balance and balance after before confirming. Too few tokens
 * (402) offers to buy tokens; too many running jobs (429) says so.
 */
export function BuyRinexDialog({ order, onClose }: { order: RinexOrder; onClose: () => void }) {
  const { t } = useTranslation('rinex');
  const { money } = useTokenMoney();
  const { balance } = useTokenBalance();
  const create = useCreateRinexJob();
  const [short, setShort] = useState<{ needed: number; balance: number }>();
  const paid = order.charge === 'tokens';
  const after = balance === undefined ? undefined : balance - order.price;
  const error = create.isError ? apiError(create.error) : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(order.body, {
      onSuccess: () => onClose(),
      onError: (err) => {
        const e = apiError(err);
        if (e?.code === 'insufficient_tokens') {
          const body = e as unknown as { needed?: number; balance?: number };
          setShort({ needed: body.needed ?? order.price, balance: body.balance ?? balance ?? 0 });
        }
      },
    });
  };

  const tokens = (count: number | undefined) => (count === undefined ? '—' : t('buy.tokens', { count }));
  const lacking =
    short ?? (paid && after !== undefined && after < 0 ? { needed: order.price, balance: balance ?? 0 } : undefined);
  return (
    <form onSubmit={submit} className="flex flex-col gap-4">
      <ModalTitle>{t('buy.title')}</ModalTitle>
      <p className="text-sm text-muted">
        {t('buy.text', {
          station: order.body.station,
          from: utcTime(order.body.from),
          to: utcTime(order.body.to),
          interval: order.body.interval,
          systems: order.body.systems.map((s) => t(`systems.${s}`)).join(', '),
        })}
      </p>
      <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 rounded-xl border border-line bg-raised/50 p-3 text-sm">
        <dt className="text-muted">{t('buy.hours')}</dt>
        <dd className="text-right text-ink tabular-nums">{order.hoursWithData}</dd>
        <dt className="text-muted">{t('buy.price')}</dt>
        <dd className="text-right font-semibold text-ink tabular-nums" data-testid="rinex-price">
          {paid
            ? money(order.price)
              ? t('buy.tokensMoney', { count: order.price, money: money(order.price) })
              : tokens(order.price)
            : order.charge === 'plan'
              ? t('price.plan')
              : t('price.free')}
        </dd>
        <dt className="text-muted">{t('buy.balance')}</dt>
        <dd className="text-right text-ink tabular-nums" data-testid="rinex-balance">
          {tokens(balance)}
        </dd>
        <dt className="text-muted">{t('buy.balanceAfter')}</dt>
        <dd
          data-testid="rinex-balance-after"
          className={`text-right font-semibold tabular-nums ${after !== undefined && after < 0 && paid ? 'text-status-red' : 'text-ink'}`}
        >
          {tokens(paid ? after : balance)}
        </dd>
      </dl>
      <p className="text-xs text-muted">{order.charge === 'plan' ? t('buy.planNote') : t('price.onlyWithData')}</p>
      {order.recording && <p className="text-xs text-muted">{t('buy.recordingNote')}</p>}
      {lacking && (
        <p
          data-testid="rinex-short"
          className="flex flex-wrap items-center justify-between gap-2 rounded-xl border border-status-yellow/40 bg-status-yellow/10 p-3 text-sm text-ink"
        >
          {t('buy.insufficient', lacking)}
          <ButtonLink to="/credits" size="sm" variant="secondary" onClick={onClose}>
            {t('buy.buyTokens')}
          </ButtonLink>
        </p>
      )}
      {error && error.code !== 'insufficient_tokens' && (
        <p role="alert" className="text-sm text-status-red">
          {t(errorKeys[error.code] ?? 'buy.failed')}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          {t('buy.cancel')}
        </Button>
        <Button type="submit" disabled={create.isPending || (paid && lacking !== undefined)}>
          {create.isPending ? t('buy.buying') : paid ? t('buy.confirm', { count: order.price }) : t('buy.confirmFree')}
        </Button>
      </div>
    </form>
  );
}
