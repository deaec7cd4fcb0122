import { useTranslation } from 'react-i18next';
import { ButtonLink } from '../../components/Button';
import { useSubscriptions } from './billing.hooks';
import { CARDS_ANCHOR } from './payment-state';

/**
 * Shown while a renewal of one of the caller's subscriptions has failed (past due): the provider retries on the
 * default card, so "Update card" leads to the saved cards, where another can be added and made default.
 */
export function RenewalFailedBanner() {
  const { t } = useTranslation('billing');
  const subscriptions = useSubscriptions();
  const failed = subscriptions.data?.subscriptions.filter((s) => s.status === 'past_due') ?? [];
  if (failed.length === 0) return null;
  return (
    <div
      role="alert"
      data-testid="renewal-failed"
      className="mb-4 flex flex-wrap items-center justify-between gap-3 rounded-xl border border-status-red/30 bg-status-red/10 px-4 py-3"
    >
      <p className="text-sm text-ink">
        {t('renewalFailed.text', { count: failed.length, name: failed[0]?.productName ?? '' })}
      </p>
      <ButtonLink to={`/settings/billing#${CARDS_ANCHOR}`} size="sm">
        {t('renewalFailed.updateCard')}
      </ButtonLink>
    </div>
  );
}
