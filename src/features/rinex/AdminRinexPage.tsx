import type { AdminUser } from '@portal/contract';
import {
  type AdminRinexNetwork,
  type AdminRinexStation,
  defaultRinexPricePerHour,
  HOUR_MS,
  RINEX_INTERVALS,
  RINEX_SYSTEMS,
} from '@portal/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { SelectField, TextField } from '../../components/form';
import { ModalTitle, useModal } from '../../components/modal';
import { Page } from '../../components/Page';
import { Preloader } from '../../components/Preloader';
import { StatCard } from '../../components/StatCard';
import { apiError } from '../../lib/api';
import { useFormat } from '../../lib/format';
import { UserPicker } from '../users/UserPicker';
import { JobHistory } from './JobHistory';
import {
  useAdminCreateRinexJob,
  useAdminRinexJobs,
  useAdminRinexNetworks,
  useAdminRinexStations,
  useAdminRinexTotals,
  useUpdateAdminRinexNetwork,
} from './rinex.hooks';

function EditNetworkDialog({ network, onClose }: { network: AdminRinexNetwork; onClose: () => void }) {
  const { t } = useTranslation('rinex');
  const update = useUpdateAdminRinexNetwork();
  const [price, setPrice] = useState(network.rinexPricePerHour === null ? '' : String(network.rinexPricePerHour));
  const [retention, setRetention] = useState(String(network.retentionDays));
  const priceValue = price.trim() === '' ? null : Number(price);
  const retentionValue = Number(retention);
  const valid =
    (priceValue === null || (Number.isInteger(priceValue) && priceValue >= 0)) &&
    Number.isInteger(retentionValue) &&
    retentionValue >= 1 &&
    retentionValue <= 3650;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    update.mutate(
      { id: network.id, patch: { rinexPricePerHour: priceValue, retentionDays: retentionValue } },
      { onSuccess: onClose },
    );
  };
  const fallback = defaultRinexPricePerHour(network.tokenPricePerDay);
  return (
    <form onSubmit={submit} className="flex flex-col gap-4">
      <ModalTitle>{t('admin.edit.title', { network: network.name })}</ModalTitle>
      <TextField
        label={t('admin.edit.price')}
        inputMode="numeric"
        value={price}
        onChange={(e) => setPrice(e.target.value)}
        hint={t('admin.edit.priceHint', {
          day: network.tokenPricePerDay,
          default: fallback === null ? t('admin.networks.notForSale') : t('buy.tokens', { count: fallback }),
        })}
      />
      <TextField
        label={t('admin.edit.retention')}
        inputMode="numeric"
        value={retention}
        onChange={(e) => setRetention(e.target.value)}
      />
      {update.isError && (
        <p role="alert" className="text-sm text-status-red">
          {t('admin.edit.failed')}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          {t('buy.cancel')}
        </Button>
        <Button type="submit" disabled={!valid || update.isPending}>
          {update.isPending ? t('admin.edit.saving') : t('admin.edit.save')}
        </Button>
      </div>
    </form>
  );
}

/** 30 days × 24 hours in one line: the darker, the more of the hour's epochs the archive holds. */
function CoverageStrip({ station }: { station: AdminRinexStation }) {
  const { t } = useTranslation('rinex');
  const hours = station.coverage.length;
  const from = Date.parse(station.coverageFrom);
  const marks = station.coverage
    .map((percent, index) => ({ percent, index, hour: from + index * HOUR_MS }))
    .filter((m) => m.percent > 0);
  return (
    <svg
      role="img"
      aria-label={t('admin.stations.strip', { station: station.mountpoint })}
      viewBox={`0 0 ${hours} 10`}
      preserveAspectRatio="none"
      className="h-4 w-full rounded-sm bg-line"
    >
      {marks.map((m) => (
        <rect
          key={m.hour}
          x={m.index}
          y={0}
          width={1}
          height={10}
          className="fill-status-green"
          opacity={0.25 + m.percent / 133}
        />
      ))}
    </svg>
  );
}

function NetworkStations({ network }: { network: AdminRinexNetwork }) {
  const { t } = useTranslation('rinex');
  const { date: day, bytes: formatBytes } = useFormat();
  const stations = useAdminRinexStations(network.id);
  if (stations.isPending) return <Preloader />;
  if (stations.isError) return <p className="text-sm text-status-red">{t('availability.error')}</p>;
  const first = stations.data[0];
  return (
    <section aria-label={t('admin.stations.title', { network: network.name })} className="flex flex-col gap-3">
      <h3 className="text-sm font-semibold text-ink">{t('admin.stations.title', { network: network.name })}</h3>
      {stations.data.length === 0 && <p className="text-sm text-muted">{t('admin.stations.empty')}</p>}
      {first && (
        <p className="flex justify-between text-xs text-subtle">
          <span>{day(first.coverageFrom)}</span>
          <span>{day(new Date(Date.parse(first.coverageFrom) + first.coverage.length * HOUR_MS).toISOString())}</span>
        </p>
      )}
      <ul className="flex flex-col gap-2">
        {stations.data.map((s) => (
          <li key={s.id} className="grid grid-cols-[7rem_1fr] items-center gap-3 md:grid-cols-[9rem_1fr_9rem]">
            <span className="truncate font-mono text-sm text-ink">{s.mountpoint}</span>
            <CoverageStrip station={s} />
            <span className="col-span-2 text-xs text-muted md:col-span-1 md:text-right">
              {t('admin.stations.size', { hours: s.archivedHours, size: formatBytes(s.storedBytes) })}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function AdminJobForm() {
  const { t } = useTranslation('rinex');
  const create = useAdminCreateRinexJob();
  const [customer, setCustomer] = useState<AdminUser | null>(null);
  const [station, setStation] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [interval, setInterval] = useState('30');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!customer) return;
    create.mutate({
      userId: customer.id,
      station: station.trim(),
      from: `${from}:00Z`,
      to: `${to}:00Z`,
      interval: Number(interval),
      systems: [...RINEX_SYSTEMS],
    });
  };
  const error = create.isError ? apiError(create.error) : undefined;
  return (
    <form onSubmit={submit} className="flex flex-col gap-3" aria-labelledby="admin-rinex-job-title">
      <h2 id="admin-rinex-job-title" className="text-base font-semibold text-ink">
        {t('admin.job.title')}
      </h2>
      <p className="text-sm text-muted">{t('admin.job.text')}</p>
      <div className="grid gap-3 md:grid-cols-5">
        <UserPicker label={t('admin.job.user')} value={customer} onChange={setCustomer} />
        <TextField
          label={t('admin.job.station')}
          value={station}
          onChange={(e) => setStation(e.target.value)}
          required
        />
        <TextField
          label={t('admin.job.from')}
          type="datetime-local"
          step={3600}
          value={from}
          onChange={(e) => setFrom(e.target.value)}
          required
        />
        <TextField
          label={t('admin.job.to')}
          type="datetime-local"
          step={3600}
          value={to}
          onChange={(e) => setTo(e.target.value)}
          required
        />
        <SelectField
          label={t('time.interval')}
          value={interval}
          options={RINEX_INTERVALS.map((s) => ({ value: String(s), label: t('time.intervalSeconds', { count: s }) }))}
          onChange={(e) => setInterval(e.target.value)}
        />
      </div>
      {create.isSuccess && <p className="text-sm text-status-green">{t('admin.job.made')}</p>}
      {error && (
        <p role="alert" className="text-sm text-status-red">
          {t('admin.job.failed', { message: error.message })}
        </p>
      )}
      <div>
        <Button type="submit" disabled={!customer || create.isPending}>
          {t('admin.job.submit')}
        </Button>
      </div>
    </form>
  );
}

/** /admin/rinex: RINEX prices and archive retention per network, coverage per station, the store's totals. */
export function AdminRinexPage() {
  const { t } = useTranslation('rinex');
  const { date: day, bytes: formatBytes } = useFormat();
  const modal = useModal();
  const networks = useAdminRinexNetworks();
  const totals = useAdminRinexTotals();
  const jobs = useAdminRinexJobs();
  const [open, setOpen] = useState<string>();
  const price = (n: AdminRinexNetwork) =>
    n.effectivePricePerHour === null
      ? t('admin.networks.notForSale')
      : n.rinexPricePerHour === null
        ? t('admin.networks.priceDefault', { count: n.effectivePricePerHour })
        : t('admin.networks.priceSet', { count: n.effectivePricePerHour });

  return (
    <Page name="admin-rinex" title={t('admin.title')} subtitle={t('admin.subtitle')}>
      {totals.data && (
        <section aria-label={t('admin.totals.title')} className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <StatCard title={t('admin.totals.stations')} value={totals.data.stations} />
          <StatCard
            title={t('admin.totals.hours')}
            value={totals.data.hours}
            hint={
              totals.data.oldestHour && totals.data.newestHour
                ? t('admin.totals.range', { from: day(totals.data.oldestHour), to: day(totals.data.newestHour) })
                : undefined
            }
          />
          <StatCard
            title={t('admin.totals.size')}
            value={formatBytes(totals.data.storedBytes)}
            hint={`${t('admin.totals.rtcm')}: ${formatBytes(totals.data.bytes)}`}
          />
          <StatCard
            title={t('admin.totals.jobs')}
            value={`${totals.data.jobs.queued} · ${totals.data.jobs.running} · ${totals.data.jobs.done}`}
          />
        </section>
      )}
      <section
        aria-labelledby="admin-rinex-networks"
        className="flex flex-col gap-4 rounded-2xl border border-line bg-panel p-4 md:p-6"
      >
        <h2 id="admin-rinex-networks" className="text-base font-semibold text-ink">
          {t('admin.networks.title')}
        </h2>
        {networks.isPending ? (
          <Preloader />
        ) : (
          <ul className="divide-y divide-line">
            {(networks.data ?? []).map((n) => (
              <li key={n.id} className="flex flex-col gap-3 py-3" data-testid="admin-rinex-network">
                <div className="flex flex-wrap items-center justify-between gap-3">
                  <div className="min-w-0">
                    <p className="font-semibold text-ink">{n.name}</p>
                    <p className="text-sm text-muted">
                      {t('admin.networks.price')}: {price(n)} · {t('admin.networks.retention')}:{' '}
                      {t('admin.networks.retentionDays', { count: n.retentionDays })} · {t('admin.networks.archive')}:{' '}
                      {t('admin.networks.archiveSize', { hours: n.archivedHours, size: formatBytes(n.archivedBytes) })}
                    </p>
                  </div>
                  <div className="flex gap-2">
                    <Button
                      size="sm"
                      variant="secondary"
                      aria-expanded={open === n.id}
                      onClick={() => setOpen(open === n.id ? undefined : n.id)}
                    >
                      {t('admin.networks.coverage')}
                    </Button>
                    <Button
                      size="sm"
                      variant="secondary"
                      onClick={() => modal.open(({ close }) => <EditNetworkDialog network={n} onClose={close} />)}
                    >
                      {t('admin.networks.edit')}
                    </Button>
                  </div>
                </div>
                {open === n.id && <NetworkStations network={n} />}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="flex flex-col gap-4 rounded-2xl border border-line bg-panel p-4 md:p-6">
        <AdminJobForm />
        {jobs.data && <JobHistory jobs={jobs.data} />}
      </section>
    </Page>
  );
}
