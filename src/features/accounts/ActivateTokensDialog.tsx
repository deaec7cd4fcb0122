import {
  activationPrice,
  MAX_ACTIVATION_DAYS,
  type Network,
  type TokenActivation,
  tokenActivationBodySchema,
} from '@portal/contract';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, ButtonLink } from '../../components/Button';
import { MessageDialog } from '../../components/dialogs';
import { FormDialogFooter } from '../../components/FormDialogFooter';
import { SelectField, TextField } from '../../components/form';
import { ModalTitle } from '../../components/modal';
import { apiError } from '../../lib/api';
import { useFormat } from '../../lib/format';
import { useZodForm } from '../../lib/forms/useZodForm';
import { useActiveOrganization } from '../auth/active-organization';
import { useTokenMoney } from '../billing/token-money';
import { useTokenBalance } from '../billing/useTokenBalance';
import {
  useAccounts,
  useActivateTokens,
  useLastReportedPosition,
  useNetworks,
  useRememberedPosition,
} from './accounts.hooks';
import { bboxContains } from './position';

/**
 * What the dialog knows about where the user will work: a position (given, or the last GGA a rover of the account
 * sent), or the network of a chosen station.
 */
export interface ActivationSuggestion {
  position?: { latitude: number; longitude: number };
  /** The position is the account's last reported GGA, not one the user gave. */
  reported?: boolean;
  networkId?: string;
}

/**
 * The network to offer first: the one named (a chosen station's), else the one whose coverage holds the position
 * (the smallest, where networks overlap).
 */
export function suggestNetwork(
  networks: Network[],
  suggest: ActivationSuggestion,
): { network: Network; why: 'station' | 'position' | 'reported' } | undefined {
  const named = suggest.networkId && networks.find((n) => n.id === suggest.networkId);
  if (named) return { network: named, why: 'station' };
  const at = suggest.position;
  if (!at) return undefined;
  const area = (n: Network) => {
    const [minLon, minLat, maxLon, maxLat] = n.coverage?.bbox ?? [0, 0, 0, 0];
    return ((maxLon - minLon + 360) % 360) * (maxLat - minLat);
  };
  const covering = networks
    .filter((n) => n.coverage && bboxContains(n.coverage.bbox, at))
    .sort((a, b) => area(a) - area(b));
  return covering[0] && { network: covering[0], why: suggest.reported ? 'reported' : 'position' };
}

type Outcome =
  | { kind: 'form' }
  | { kind: 'insufficient'; needed: number; balance: number }
  | { kind: 'done'; result: TokenActivation };

/**
 * Token activation (spec §3): account, network, days; the price (network's tokens per day × days), the balance
 * after and the date access ends (new days follow the account's current access to that network) are shown before
 * confirming. The network of the station the user chose, or covering the position they gave (in the dialog or in the
 * account's card) or the account's rover last sent, is offered first; without any, the cheapest (issue 32: it was the
 * first of the list, the most expensive in the demo). Too few
 * tokens (402, or 409 from older servers) offers to buy tokens; with an organisation chosen in the switcher, the
 * balance is the organisation's, and tokens reach it only by being moved from a member's own (docs/adr/0026).
 */
export function ActivateTokensDialog({
  accountId,
  onClose,
  suggest = {},
}: {
  accountId?: string;
  onClose: () => void;
  suggest?: ActivationSuggestion;
}) {
  const { t } = useTranslation('accounts');
  const format = useFormat();
  const accounts = useAccounts();
  const networks = useNetworks();
  const { balance } = useTokenBalance();
  const org = useActiveOrganization();
  const shortOf = (needed: number, have: number) =>
    org
      ? t('activate.insufficientOrganization', { needed, balance: have, name: org.name })
      : t('activate.insufficient', { needed, balance: have });
  const topUp = org
    ? { to: `/settings/organization?org=${org.id}`, label: t('activate.moveTokens') }
    : { to: '/credits', label: t('activate.buyTokens') };
  const activate = useActivateTokens();
  const { money } = useTokenMoney();
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'form' });
  const [located, setLocated] = useState(suggest.position);
  const [locating, setLocating] = useState<'idle' | 'busy' | 'failed'>('idle');

  const activatable = useMemo(
    () =>
      (networks.data ?? [])
        .filter((n) => n.status !== 'retired' && n.tokenPricePerDay > 0)
        .sort((a, b) => a.tokenPricePerDay - b.tokenPricePerDay || a.name.localeCompare(b.name)),
    [networks.data],
  );
  const accountList = accounts.data ?? [];
  // Outside the form: the account's positions choose the network the form offers first.
  const [accountChoice, setAccountChoice] = useState(accountId ?? '');
  const account = accountList.find((a) => a.id === accountChoice) ?? accountList[0];
  const reported = useLastReportedPosition(account?.id);
  const [typed] = useRememberedPosition(account?.id);
  const given = located ?? typed;
  const suggested = suggestNetwork(activatable, {
    networkId: suggest.networkId,
    position: given ?? reported,
    reported: !given && !!reported,
  });
  const ordered = suggested ? [suggested.network, ...activatable.filter((n) => n !== suggested.network)] : activatable;
  const form = useZodForm({
    initialValues: { accountId: accountId ?? '', feedNetworkId: '', days: '1' },
    schema: tokenActivationBodySchema,
    toBody: (v) => ({
      accountId: account?.id,
      feedNetworkId: (activatable.find((n) => n.id === v.feedNetworkId) ?? ordered[0])?.id,
      days: Number.parseInt(v.days, 10),
    }),
    submit: async (body) => {
      try {
        return await activate.mutateAsync(body);
      } catch (error) {
        const e = apiError(error);
        if (e?.code === 'insufficient_tokens' && (e.status === 402 || e.status === 409)) {
          const answer = e as unknown as { needed?: number; balance?: number };
          setOutcome({
            kind: 'insufficient',
            needed: answer.needed ?? price ?? 0,
            balance: answer.balance ?? balance ?? 0,
          });
        }
        throw error;
      }
    },
    onSuccess: (result) => setOutcome({ kind: 'done', result }),
  });
  const network = activatable.find((n) => n.id === form.values.feedNetworkId) ?? ordered[0];
  const locate = () => {
    if (!('geolocation' in navigator)) return setLocating('failed');
    setLocating('busy');
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => {
        setLocating('idle');
        setLocated({ latitude: coords.latitude, longitude: coords.longitude });
      },
      () => setLocating('failed'),
      { enableHighAccuracy: false, timeout: 20_000, maximumAge: 60_000 },
    );
  };
  const days = Number.parseInt(form.values.days, 10);
  const daysValid = Number.isInteger(days) && days >= 1 && days <= MAX_ACTIVATION_DAYS;
  const price = network && daysValid ? activationPrice(network.tokenPricePerDay, days) : undefined;
  const after = price !== undefined && balance !== undefined ? balance - price : undefined;
  const now = Date.now();
  // The server starts new days where the account's own access to the network ends (docs/adr/0008).
  const currentEnd = account?.grants
    .filter(
      (g) =>
        (g.source === 'tokens' || g.source === 'manual') &&
        !g.allAccounts &&
        g.networkId === network?.id &&
        Date.parse(g.validUntil) > now,
    )
    .map((g) => g.validUntil)
    .sort()
    .at(-1);
  const until = daysValid ? (currentEnd ? Date.parse(currentEnd) : now) + days * 86_400_000 : undefined;

  if (outcome.kind === 'insufficient') {
    return (
      <MessageDialog
        icon="coins"
        tone="yellow"
        title={t('activate.insufficientTitle')}
        actions={
          <>
            <Button variant="secondary" onClick={() => setOutcome({ kind: 'form' })}>
              {t('actions.cancel')}
            </Button>
            <ButtonLink to={topUp.to} onClick={onClose} data-autofocus>
              {topUp.label}
            </ButtonLink>
          </>
        }
      >
        {shortOf(outcome.needed, outcome.balance)}
      </MessageDialog>
    );
  }
  if (outcome.kind === 'done') {
    return (
      <MessageDialog
        icon="check"
        tone="green"
        title={t('activate.successTitle')}
        actions={
          <Button onClick={onClose} data-autofocus>
            {t('actions.done')}
          </Button>
        }
      >
        {t('activate.success', {
          account: account?.label ?? '',
          network: outcome.result.grant.networkName,
          date: format.dateTime(outcome.result.grant.validUntil),
        })}
      </MessageDialog>
    );
  }

  return (
    <form onSubmit={form.handleSubmit} className="flex flex-col gap-4">
      <ModalTitle>{t('activate.title')}</ModalTitle>
      <p className="text-sm text-muted">{t('activate.text')}</p>
      {accounts.isSuccess && accountList.length === 0 ? (
        <p className="text-sm text-status-yellow">{t('activate.noAccounts')}</p>
      ) : (
        <SelectField
          label={t('activate.account')}
          value={account?.id ?? ''}
          onChange={(e) => {
            setAccountChoice(e.target.value);
            form.set('accountId')(e.target.value);
          }}
          options={accountList.map((a) => ({ value: a.id, label: `${a.label} (${a.username})` }))}
        />
      )}
      {networks.isSuccess && activatable.length === 0 ? (
        <p className="text-sm text-status-yellow">{t('activate.noNetworks')}</p>
      ) : (
        <SelectField
          label={t('activate.network')}
          value={network?.id ?? ''}
          onChange={(e) => form.set('feedNetworkId')(e.target.value)}
          options={ordered.map((n) => ({
            value: n.id,
            label: `${n.name} · ${
              money(n.tokenPricePerDay)
                ? t('activate.pricePerDayMoney', { price: n.tokenPricePerDay, money: money(n.tokenPricePerDay) })
                : t('activate.pricePerDay', { price: n.tokenPricePerDay })
            }`,
          }))}
        />
      )}
      {suggested && network === suggested.network && (
        <p className="text-xs text-status-green" data-testid="activation-suggested">
          {t(`activate.suggested.${suggested.why}`, { network: suggested.network.name })}
        </p>
      )}
      {!given && !suggest.networkId && activatable.length > 1 && (
        <p className="flex flex-wrap items-center gap-2 text-xs text-muted">
          <Button size="sm" variant="ghost" onClick={locate} disabled={locating === 'busy'}>
            {t('activate.suggestByLocation')}
          </Button>
          {locating === 'failed' && <span role="alert">{t('activate.locationFailed')}</span>}
        </p>
      )}
      <TextField
        label={t('activate.days')}
        type="number"
        inputMode="numeric"
        min={1}
        max={MAX_ACTIVATION_DAYS}
        value={form.values.days}
        onChange={(e) => form.set('days')(e.target.value)}
        error={form.errors.days}
        required
      />
      <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 rounded-xl border border-line bg-raised/50 p-3 text-sm">
        <dt className="text-muted">{t('activate.price')}</dt>
        <dd className="text-right font-semibold text-ink tabular-nums" data-testid="activation-price">
          {price === undefined
            ? '—'
            : money(price)
              ? t('activate.tokensMoney', { count: price, money: money(price) })
              : t('activate.tokens', { count: price })}
        </dd>
        <dt className="text-muted">
          {org ? t('activate.organizationBalance', { name: org.name }) : t('activate.balance')}
        </dt>
        <dd className="text-right text-ink tabular-nums">
          {balance === undefined ? '—' : t('activate.tokens', { count: balance })}
        </dd>
        <dt className="text-muted">{t('activate.balanceAfter')}</dt>
        <dd
          data-testid="activation-balance-after"
          className={`text-right font-semibold tabular-nums ${after !== undefined && after < 0 ? 'text-status-red' : 'text-ink'}`}
        >
          {after === undefined ? '—' : t('activate.tokens', { count: after })}
        </dd>
        <dt className="text-muted">{t('activate.until')}</dt>
        <dd className="text-right text-ink tabular-nums" data-testid="activation-until">
          {until === undefined ? '—' : format.dateTime(new Date(until).toISOString())}
        </dd>
      </dl>
      {currentEnd && (
        <p className="text-sm text-muted">{t('activate.extends', { date: format.dateTime(currentEnd) })}</p>
      )}
      {after !== undefined && after < 0 && (
        <p
          data-testid="activation-short"
          className="flex flex-wrap items-center justify-between gap-2 rounded-xl border border-status-yellow/40 bg-status-yellow/10 p-3 text-sm text-ink"
        >
          {shortOf(price ?? 0, balance ?? 0)}
          <ButtonLink to={topUp.to} size="sm" variant="secondary" onClick={onClose}>
            {topUp.label}
          </ButtonLink>
        </p>
      )}
      <FormDialogFooter
        error={form.general && apiError(activate.error)?.code !== 'insufficient_tokens' && t('activate.failed')}
        onCancel={onClose}
        submitLabel={form.pending ? t('activate.activating') : t('activate.confirm', { count: price ?? 0 })}
        submitDisabled={!form.valid || price === undefined || form.pending}
      />
    </form>
  );
}
