import {
  type DayStrip as DayStripData,
  type Incident,
  type NetworkStatus,
  STATUS_WINDOW_DAYS,
  stripDays,
} from '@portal/contract';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GenericErrorBlock } from '../../components/GenericErrorBlock';
import { Page } from '../../components/Page';
import { Preloader } from '../../components/Preloader';
import { api } from '../../lib/api';
import { brand } from '../../lib/brand';
import { useFormat } from '../../lib/format';
import { useStationDays, useStatus } from './status.api';

const card = 'flex flex-col gap-4 rounded-2xl border border-line bg-panel p-5';

const stateTones: Record<string, string> = {
  operational: 'bg-status-green/15 text-status-green',
  available: 'bg-status-green/15 text-status-green',
  degraded: 'bg-status-yellow/15 text-status-yellow',
  integrity: 'bg-status-yellow/15 text-status-yellow',
  down: 'bg-status-red/15 text-status-red',
  offline: 'bg-status-red/15 text-status-red',
  unmonitored: 'bg-line text-muted',
};

/** A day's bar: green when always available, yellow down to 95 %, red below, grey when nothing was recorded. */
function dayTone(availability: number | null): string {
  if (availability === null) return 'bg-line';
  if (availability >= 100) return 'bg-status-green';
  if (availability >= 95) return 'bg-status-yellow';
  return 'bg-status-red';
}

function usePercent() {
  const { language } = useFormat();
  return useMemo(() => {
    const digits = new Intl.NumberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    return (value: number) => `${digits.format(value)} %`;
  }, [language]);
}

function StateBadge({ state }: { state: string }) {
  const { t } = useTranslation('status');
  return (
    <span
      data-testid="status-state"
      data-state={state}
      className={`rounded-full px-2 py-0.5 text-xs font-medium ${stateTones[state] ?? stateTones.offline}`}
    >
      {t(`state.${state}`)}
    </span>
  );
}

/** The 90 days, oldest left: one bar a day, its date and figure in its title and accessible name. */
function DayStrip({ strip, small = false }: { strip: DayStripData; small?: boolean }) {
  const { t } = useTranslation('status');
  const format = useFormat();
  const percent = usePercent();
  const days = useMemo(() => stripDays(strip), [strip]);
  return (
    <ol aria-label={t('strip', { count: days.length })} className={`flex items-end gap-px ${small ? 'h-4' : 'h-8'}`}>
      {days.map((day) => {
        const label = `${format.date(`${day.date}T12:00:00Z`)}: ${
          day.availability === null ? t('noData') : percent(day.availability)
        }`;
        return (
          <li
            key={day.date}
            title={label}
            aria-label={label}
            data-date={day.date}
            className={`h-full min-w-0.5 flex-1 rounded-[1px] ${dayTone(day.availability)}`}
          />
        );
      })}
    </ol>
  );
}

function IncidentItem({ incident }: { incident: Incident }) {
  const { t } = useTranslation('status');
  const format = useFormat();
  const seconds = Math.round(
    ((incident.end ? Date.parse(incident.end) : Date.now()) - Date.parse(incident.start)) / 1000,
  );
  const codes = incident.codes.map((code) => t(`codes.${code}`)).join(', ');
  return (
    <li data-testid="status-incident" data-cause={incident.cause} className="flex flex-col gap-0.5 py-2 text-sm">
      <p className="text-ink">
        <span className="font-mono font-semibold">{incident.mountpoint}</span> {t(`cause.${incident.cause}`)}
        {codes && <span className="text-muted"> ({codes})</span>}
      </p>
      <p className="text-muted">
        {incident.end
          ? t('incidentEnded', {
              start: format.dateTime(incident.start),
              end: format.dateTime(incident.end),
              duration: format.duration(seconds),
            })
          : t('incidentOngoing', { start: format.dateTime(incident.start), duration: format.duration(seconds) })}
      </p>
    </li>
  );
}

function NetworkCard({ network, days }: { network: NetworkStatus; days: number }) {
  const { t } = useTranslation('status');
  const percent = usePercent();
  const headingId = `status-${network.slug}`;
  // A network of hundreds of stations has tens of thousands of day bars: drawn only once someone opens the list.
  const [open, setOpen] = useState(false);
  // The stations' strips come from their own call (the main answer would be a megabyte with them).
  const stationDays = useStationDays(network.slug, open);
  const stripOf = useMemo(
    () => new Map((stationDays.data?.stations ?? []).map((s) => [s.id, s.days])),
    [stationDays.data],
  );
  return (
    <section className={card} aria-labelledby={headingId} data-testid="status-network" data-slug={network.slug}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={headingId} className="text-lg font-semibold text-ink">
          {network.name}
        </h2>
        <div className="flex items-center gap-3 text-sm">
          <span data-testid="status-availability" className="text-ink">
            {network.availability === null
              ? t('noData')
              : t('availability', { value: percent(network.availability), days })}
          </span>
          <StateBadge state={network.state} />
        </div>
      </div>
      <DayStrip strip={network.days} />
      <details onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary className="cursor-pointer text-sm text-muted hover:text-ink">
          {t('stations', { count: network.stations.length })}
        </summary>
        {open && (
          <table className="mt-3 w-full text-sm">
            <thead>
              <tr className="text-left text-subtle">
                <th className="py-1 pr-3 font-medium">{t('columns.station')}</th>
                <th className="py-1 pr-3 font-medium">{t('columns.state')}</th>
                <th className="py-1 pr-3 text-right font-medium">{t('columns.availability')}</th>
                <th className="hidden w-1/2 py-1 font-medium md:table-cell">{t('columns.days')}</th>
              </tr>
            </thead>
            <tbody>
              {network.stations.map((station) => (
                <tr key={station.id} data-testid="status-station" data-mountpoint={station.mountpoint}>
                  <td className="py-1 pr-3">
                    <span className="font-mono text-ink">{station.mountpoint}</span>
                    {station.identifier && (
                      <span className="ml-2 text-muted">
                        {station.identifier} · {station.country}
                      </span>
                    )}
                  </td>
                  <td className="py-1 pr-3">
                    <StateBadge state={station.state} />
                  </td>
                  <td data-testid="status-station-availability" className="py-1 pr-3 text-right text-ink">
                    {station.availability === null ? '–' : percent(station.availability)}
                  </td>
                  <td className="hidden py-1 md:table-cell">
                    {(() => {
                      const strip = stripOf.get(station.id);
                      return strip && <DayStrip strip={strip} small />;
                    })()}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </details>
      <div>
        <h3 className="text-sm font-semibold text-ink">{t('incidents')}</h3>
        {network.incidents.length === 0 ? (
          <p className="text-sm text-muted">{t('noIncidents', { days })}</p>
        ) : (
          <ul className="divide-y divide-line">
            {network.incidents.map((incident) => (
              <IncidentItem key={incident.id} incident={incident} />
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

/** Where the API is (VITE_API_BASE_URL may name another origin): the feeds are read by other programs there. */
function feedBase(): string {
  return (api.defaults.baseURL ?? '/api').replace(/\/+$/, '');
}

/** /status: every public network and station, now and over 90 days, from the stations' recorded state changes. */
export function StatusPage() {
  const { t } = useTranslation('status');
  const format = useFormat();
  const status = useStatus();
  return (
    <Page
      name="status"
      title={t('title')}
      subtitle={t('subtitle', { product: brand.name, days: STATUS_WINDOW_DAYS })}
      actions={
        <div className="flex gap-4 text-sm">
          <a href={`${feedBase()}/status/incidents.atom`} className="text-accent underline" type="application/atom+xml">
            {t('atom')}
          </a>
          <a href={`${feedBase()}/status/incidents.json`} className="text-accent underline" type="application/json">
            {t('json')}
          </a>
        </div>
      }
    >
      {status.isPending && <Preloader />}
      {status.isError && <GenericErrorBlock />}
      {status.data && (
        <>
          <p className="text-xs text-subtle">
            {t('explained')} {t('updated', { time: format.moment(status.data.generatedAt) })}
          </p>
          {status.data.networks.length === 0 && <p className="text-sm text-muted">{t('noNetworks')}</p>}
          {status.data.networks.map((network) => (
            <NetworkCard key={network.slug} network={network} days={status.data.windowDays} />
          ))}
        </>
      )}
    </Page>
  );
}
