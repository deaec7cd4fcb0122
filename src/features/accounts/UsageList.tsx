import { DEFAULT_SESSION_PAGE, type NtripAccount } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { Pager } from '../../components/Pager';
import { useFormat } from '../../lib/format';
import { downloadSessionsCsv } from './accounts.api';
import { useSessions } from './accounts.hooks';

/** A link to a small map around the rover's last position (OpenStreetMap; no map library in this bundle). */
function PositionLink({ latitude, longitude }: { latitude: number; longitude: number }) {
  const { t } = useTranslation('accounts');
  const lat = latitude.toFixed(5);
  const lon = longitude.toFixed(5);
  return (
    <a
      href={`https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=15/${lat}/${lon}`}
      target="_blank"
      rel="noreferrer"
      className="inline-flex items-center gap-1 text-accent hover:underline"
      aria-label={t('usage.showOnMap', { lat, lon })}
    >
      <Icon name="map" size={14} />
      {lat}, {lon}
    </a>
  );
}

/** The account's connection log, newest first, paged, with a CSV download of all of it. */
export function UsageList({
  account,
  pageSize = DEFAULT_SESSION_PAGE,
  admin = false,
}: {
  account: NtripAccount;
  pageSize?: number;
  /** The back office reads any account's log; the CSV download stays the owner's. */
  admin?: boolean;
}) {
  const { t } = useTranslation('accounts');
  // The columns a session keeps of its live view (issue 17) are named in the diagnostics' namespace.
  const { t: td } = useTranslation('diagnostics');
  const percent = (share: number) => format.number(Math.round(share * 100));
  const format = useFormat();
  const [page, setPage] = useState(1);
  const [downloadFailed, setDownloadFailed] = useState(false);
  const sessions = useSessions(account.id, page, pageSize, admin);

  const download = async () => {
    setDownloadFailed(false);
    try {
      await downloadSessionsCsv(account.id, `ntrip-sessions-${account.username}.csv`);
    } catch {
      setDownloadFailed(true);
    }
  };

  return (
    <section aria-label={t('usage.title')} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-semibold text-ink">{t('usage.title')}</h3>
        {!admin && (
          <Button size="sm" variant="secondary" onClick={download} disabled={!sessions.data?.total}>
            <Icon name="receipt" size={14} />
            {t('usage.download')}
          </Button>
        )}
      </div>
      {downloadFailed && (
        <p role="alert" className="text-sm text-status-red">
          {t('usage.downloadFailed')}
        </p>
      )}
      {sessions.isError ? (
        <p role="alert" className="text-sm text-status-red">
          {t('actionFailed')}
        </p>
      ) : sessions.data && sessions.data.items.length === 0 ? (
        <p className="rounded-xl border border-dashed border-line px-4 py-6 text-center text-sm text-muted">
          {t('usage.empty')}
        </p>
      ) : (
        <div className="overflow-x-auto rounded-xl border border-line">
          <table className="w-full text-left text-sm" aria-busy={sessions.isFetching}>
            <thead className="border-b border-line text-xs tracking-wide text-subtle uppercase">
              <tr>
                <th className="px-3 py-2 font-medium">{t('usage.mountpoint')}</th>
                <th className="px-3 py-2 font-medium">{t('usage.start')}</th>
                <th className="px-3 py-2 font-medium">{t('usage.duration')}</th>
                <th className="px-3 py-2 font-medium">{t('usage.bytes')}</th>
                <th className="px-3 py-2 font-medium">{t('usage.endReason')}</th>
                <th className="px-3 py-2 font-medium">{t('usage.position')}</th>
                <th className="px-3 py-2 font-medium">{td('usage.servedBy')}</th>
                <th className="px-3 py-2 font-medium">{td('usage.fixedFloat')}</th>
              </tr>
            </thead>
            <tbody>
              {sessions.data?.items.map((s) => (
                <tr key={s.id} className="border-b border-line last:border-0">
                  <td className="px-3 py-2 font-mono text-ink">{s.mountpoint}</td>
                  <td className="px-3 py-2 text-muted">{format.dateTime(s.startedAt)}</td>
                  <td className="px-3 py-2 text-muted tabular-nums">{format.duration(s.durationSeconds)}</td>
                  <td className="px-3 py-2 text-muted tabular-nums">{format.bytes(s.bytesSent)}</td>
                  <td className="px-3 py-2 text-muted">
                    {s.endedAt === null
                      ? t('usage.open')
                      : s.endReason
                        ? t(`usage.reasons.${s.endReason}`, { defaultValue: s.endReason })
                        : '—'}
                  </td>
                  <td className="px-3 py-2 text-muted">
                    {s.lastPosition ? <PositionLink {...s.lastPosition} /> : t('usage.noPosition')}
                  </td>
                  <td className="px-3 py-2 text-muted">
                    {s.servedStation ? (
                      <>
                        <span className="font-mono">{s.servedStation}</span>
                        {s.distanceKm !== null &&
                          ` · ${td('usage.distance', { km: format.number(Math.round(s.distanceKm * 10) / 10) })}`}
                      </>
                    ) : (
                      td('usage.none')
                    )}
                  </td>
                  <td className="px-3 py-2 text-muted tabular-nums">
                    {s.fixedShare === null || s.floatShare === null
                      ? td('usage.none')
                      : td('usage.share', { fixed: percent(s.fixedShare), float: percent(s.floatShare) })}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        page={page}
        pageSize={pageSize}
        total={sessions.data?.total ?? 0}
        onPage={setPage}
        label={t('usage.title')}
      />
    </section>
  );
}
