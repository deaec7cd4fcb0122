import type { LedgerEntry } from '@portal/contract';
import type { TFunction } from 'i18next';

/** The RINEX failures a refund names; any other code reads as a failed conversion. */
const RINEX_FAILURES = new Set(['station_gone', 'conversion_no_data_in_window']);

/**
 * A ledger entry's note in the reader's language: the server's code and values worded here (times as local dates),
 * else the text it holds (an administrator's reason, or an entry older than the codes). `t` is the billing
 * namespace's.
 */
export function ledgerNote(
  entry: Pick<LedgerEntry, 'note' | 'noteCode' | 'noteParams'>,
  t: TFunction<'billing'>,
  dateTime: (iso: string) => string,
): string {
  const params = entry.noteParams ?? {};
  switch (entry.noteCode) {
    case 'token_pack':
    case 'taken_back_disputed':
    case 'taken_back_refunded':
      return t(`ledgerNote.${entry.noteCode}`);
    case 'activation':
      return t('ledgerNote.activation', {
        count: Number(params.days),
        network: params.network,
        account: params.account,
      });
    case 'transfer_to':
      return params.organization
        ? t('ledgerNote.transfer_to', { organization: params.organization })
        : t('ledger.organization_transfer');
    case 'rinex':
      return t('ledgerNote.rinex', {
        count: Number(params.count),
        mountpoint: params.mountpoint,
        at: typeof params.at === 'string' ? dateTime(params.at) : '',
      });
    case 'rinex_failed': {
      const reason = String(params.reason);
      return t('ledgerNote.rinex_failed', {
        mountpoint: params.mountpoint,
        reason: t(`ledgerNote.rinexFailures.${RINEX_FAILURES.has(reason) ? reason : 'other'}`),
      });
    }
    default:
      return entry.note ?? '';
  }
}
