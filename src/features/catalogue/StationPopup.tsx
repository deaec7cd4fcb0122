import { useTranslation } from 'react-i18next';
import { ButtonLink } from '../../components/Button';
import { useFormat } from '../../lib/format';
import { useUser } from '../auth/auth-context';
import type { CatalogueScope } from './catalogue.api';
import { useNetworks, useStation } from './catalogue.hooks';
import { catalogueMismatches } from './catalogue-mismatch';
import { useReferenceFrameText } from './reference-frame';
import { StatusBadge } from './StatusBadge';

/** The details a surveyor checks before choosing a mountpoint: where, what it sends, and whether it is live. */
export function StationPopup({ scope, id }: { scope: CatalogueScope; id: string }) {
  const { t } = useTranslation('catalogue');
  const format = useFormat();
  const { t: td } = useTranslation('diagnostics');
  const { t: ts } = useTranslation('status');
  const station = useStation(scope, id);
  const user = useUser();
  const networks = useNetworks(scope);
  const frameText = useReferenceFrameText();
  if (station.isPending) return <p className="text-sm text-muted">{t('loading')}</p>;
  if (station.isError) return <p className="text-sm text-status-red">{t('popup.error')}</p>;
  const s = station.data;
  const network = networks.data?.find((n) => n.id === s.networkId);
  const lastData = s.lastDataAt ? format.moment(s.lastDataAt) : t('popup.never');
  const rows: Array<[string, string]> = [
    [t('fields.network'), network?.name ?? s.networkSlug],
    [t('fields.referenceFrame'), frameText(s.referenceFrame)],
    [t('fields.identifier'), s.identifier || '–'],
    [
      t('fields.position'),
      `${s.latitude.toFixed(4)}, ${s.longitude.toFixed(4)}${s.heightM === null ? '' : ` · ${s.heightM} m`}`,
    ],
    [t('fields.country'), s.country],
    [t('fields.format'), s.format],
    [t('fields.navSystem'), s.navSystem],
    [t('fields.receiver'), s.receiver || '–'],
    [t('fields.antenna'), s.antenna || '–'],
    [t('fields.lastData'), lastData],
  ];
  return (
    <div data-testid="station-popup" className="flex min-w-60 flex-col gap-2 text-sm">
      <div className="flex items-center justify-between gap-3 pr-5">
        <h3 className="font-mono text-base font-semibold text-ink">{s.mountpoint}</h3>
        <StatusBadge status={s.status} />
      </div>
      <p data-testid="station-liveness" className={s.status === 'online' ? 'text-status-green' : 'text-muted'}>
        {s.status === 'online'
          ? td('station.receiving')
          : s.lastDataAt
            ? td('station.offlineSince', { time: lastData })
            : td('station.neverReceived')}
      </p>
      {s.integrity.state === 'failing' && (
        <p
          data-testid="station-integrity"
          role="status"
          className="rounded-lg border border-status-yellow/40 bg-status-yellow/10 px-2 py-1 text-status-yellow"
        >
          {t('popup.integrityFailing', {
            reasons: s.integrity.reasons
              .filter((r) => r.level === 'failing')
              .map((r) => ts(`codes.${r.code}`))
              .join(', '),
          })}
        </p>
      )}
      {scope === 'admin' &&
        catalogueMismatches(s).map((code) => (
          <p
            key={code}
            data-testid="catalogue-mismatch"
            role="status"
            className="rounded-lg border border-status-yellow/40 bg-status-yellow/10 px-2 py-1 text-status-yellow"
          >
            {t(`popup.${code === 'position_mismatch' ? 'catalogueMismatch' : 'descriptorMismatch'}`)}
          </p>
        ))}
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-subtle">{label}</dt>
            <dd className="text-ink">{value}</dd>
          </div>
        ))}
      </dl>
      {s.formatDetails && (
        <p className="break-words font-mono text-xs text-muted" title={t('fields.formatDetails')}>
          {s.formatDetails}
        </p>
      )}
      {user && scope === 'public' && (
        <ButtonLink to={`/rinex?station=${encodeURIComponent(s.mountpoint)}`} size="sm" variant="secondary">
          {t('popup.rinex')}
        </ButtonLink>
      )}
    </div>
  );
}
