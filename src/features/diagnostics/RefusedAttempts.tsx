import type { Refusal } from '@portal/contract';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../lib/format';
import { useRefusals } from './diagnostics.hooks';

const NEAR = /_NEAR$/i;

/** The refusal in plain words: what happened and what the owner does about it. */
function explain(t: TFunction<'diagnostics'>, refusal: Refusal, moment: (iso: string) => string) {
  const base = `refused.reasons.${refusal.reason}`;
  const { detail } = refusal;
  const values = {
    mountpoint: refusal.mountpoint,
    address: refusal.remoteAddress,
    network: detail.network?.name ?? refusal.mountpoint,
    seconds: detail.waitedSeconds ?? 0,
    count: detail.limit ?? 0,
  };
  switch (refusal.reason) {
    case 'account_disabled': {
      const who = detail.disabled ?? 'account';
      return { title: t(`${base}.title`), text: t(`${base}.text_${who}`), fix: t(`${base}.fix_${who}`) };
    }
    case 'no_access':
      return {
        title: t(`${base}.title`, values),
        text: detail.accessEndedAt
          ? t(`${base}.text_ended`, { ...values, date: moment(detail.accessEndedAt) })
          : t(`${base}.text_never`, values),
        fix: t(`${base}.fix`, values),
      };
    case 'mountpoint_offline':
      return {
        title: t(`${base}.title`, values),
        text: t(
          detail.offlineAtLogin
            ? `${base}.text_login`
            : NEAR.test(refusal.mountpoint)
              ? `${base}.text_near`
              : `${base}.text`,
          values,
        ),
        fix: t(`${base}.fix`, values),
      };
    case 'throttled': {
      const rule = detail.throttle ?? 'pair';
      return { title: t(`${base}.title`), text: t(`${base}.text_${rule}`, values), fix: t(`${base}.fix_${rule}`) };
    }
    default:
      return { title: t(`${base}.title`, values), text: t(`${base}.text`, values), fix: t(`${base}.fix`, values) };
  }
}

function RefusalItem({ refusal }: { refusal: Refusal }) {
  const { t } = useTranslation('diagnostics');
  const { moment } = useFormat();
  const { title, text, fix } = explain(t, refusal, moment);
  const others = refusal.detail.sessions ?? [];
  return (
    <li
      data-testid="refusal"
      data-reason={refusal.reason}
      className="flex flex-col gap-1 rounded-xl border border-line bg-raised/50 p-3 text-sm"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <strong className="font-semibold text-ink">{title}</strong>
        <span className="text-xs text-subtle tabular-nums">
          {t('refused.when', {
            time: moment(refusal.lastAt),
            times: t('refused.times', { count: refusal.count }),
          })}
        </span>
      </div>
      <p className="text-muted">{text}</p>
      {refusal.reason === 'too_many_connections' && (
        <ul className="ml-4 list-disc text-muted">
          {others.map((s) => (
            <li key={`${s.remoteAddress}-${s.since}`}>
              {t('refused.reasons.too_many_connections.session', {
                address: s.remoteAddress,
                mountpoint: s.mountpoint,
                time: moment(s.since),
                client: s.userAgent ?? t('refused.unknownClient'),
              })}
            </li>
          ))}
          {others.length < (refusal.detail.limit ?? 0) && (
            <li>{t('refused.reasons.too_many_connections.otherNodes')}</li>
          )}
        </ul>
      )}
      <p className="text-ink">
        <span className="font-medium">{t('refused.fix')}</span> {fix}
      </p>
      <p className="text-xs text-subtle">
        {t('refused.where', { mountpoint: refusal.mountpoint, address: refusal.remoteAddress })} ·{' '}
        {t(refusal.tls ? 'refused.clientTls' : 'refused.client', {
          client: refusal.userAgent ?? t('refused.unknownClient'),
          version: refusal.ntripVersion,
        })}
      </p>
    </li>
  );
}

/**
 * The account's refused attempts of the last day in plain words, each with its fix (issue 17). Refreshes every
 * few seconds while shown, so a rover's failed login appears while its owner is looking.
 */
export function RefusedAttempts({ accountId, admin = false }: { accountId: string; admin?: boolean }) {
  const { t } = useTranslation('diagnostics');
  const refusals = useRefusals(accountId, admin);
  return (
    <section aria-label={t('refused.title')} className="flex flex-col gap-3">
      <div className="flex flex-col gap-1">
        <h3 className="text-sm font-semibold text-ink">{t('refused.title')}</h3>
        <p className="text-xs text-muted">{t('refused.intro')}</p>
      </div>
      {refusals.isError && !refusals.data && (
        <p role="alert" className="text-sm text-status-red">
          {t('refused.loadError')}
        </p>
      )}
      {refusals.data?.length === 0 && (
        <p className="rounded-xl border border-dashed border-line px-4 py-6 text-center text-sm text-muted">
          {t('refused.empty')}
        </p>
      )}
      {refusals.data && refusals.data.length > 0 && (
        <ul className="flex max-h-[28rem] flex-col gap-2 overflow-y-auto" aria-live="polite">
          {refusals.data.map((r) => (
            <RefusalItem key={r.id} refusal={r} />
          ))}
        </ul>
      )}
    </section>
  );
}
