import type { AdminUser } from '@portal/contract';
import {
  type AdminRinexNetwork,
  type AdminRinexStation,
  adminCreateRinexJobBodySchema,
  adminRinexNetworkPatchSchema,
  defaultRinexPricePerHour,
  HOUR_MS,
  RINEX_INTERVALS,
  RINEX_SYSTEMS,
} from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { SelectField, TextField } from '../../components/form';
import { ModalTitle, useModal } from '../../components/modal';
import { Page } from '../../components/Page';
import { Preloader } from '../../components/Preloader';
import { StatCard } from '../../components/StatCard';
import { useFormat } from '../../lib/format';
import { useZodForm } from '../../lib/forms/useZodForm';
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
  const form = useZodForm({
    initialValues: {
      rinexPricePerHour: network.rinexPricePerHour === null ? '' : String(network.rinexPricePerHour),
      retentionDays: String(network.retentionDays),
    },
    schema: adminRinexNetworkPatchSchema,
    toBody: (v) => ({
      rinexPricePerHour: v.rinexPricePerHour.trim() === '' ? null : Number(v.rinexPricePerHour),
      retentionDays: v.retentionDays.trim() === '' ? Number.NaN : Number(v.retentionDays),
    }),
    submit: (patch) => update.mutateAsync({ id: network.id, patch }),
    onSuccess: onClose,
  });
  const fallback = defaultRinexPricePerHour(network.tokenPricePerDay);
  return (
    <form onSubmit={form.handleSubmit} className="flex flex-col gap-4">
      <ModalTitle>{t('admin.edit.title', { network: network.name })}</ModalTitle>
      <TextField
        label={t('admin.edit.price')}
        inputMode="numeric"
        value={form.values.rinexPricePerHour}
        onChange={(e) => form.set('rinexPricePerHour')(e.target.value)}
        onBlur={form.touch('rinexPricePerHour')}
        error={form.errors.rinexPricePerHour}
        hint={t('admin.edit.priceHint', {
          day: network.tokenPricePerDay,
          default: fallback === null ? t('admin.networks.notForSale') : t('buy.tokens', { count: fallback }),
        })}
      />
      <TextField
        label={t('admin.edit.retention')}
        inputMode="numeric"
        value={form.values.retentionDays}
        onChange={(e) => form.set('retentionDays')(e.target.value)}
        onBlur={form.touch('retentionDays')}
        error={form.errors.retentionDays}
      />
      {form.general && (
        <p role="alert" className="text-sm text-status-red">
          {t('admin.edit.failed')}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          {t('buy.cancel')}
        </Button>
        <Button type="submit" disabled={!form.valid || form.pending}>
          {form.pending ? t('admin.edit.saving') : t('admin.edit.save')}
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
  const [made, setMade] = useState(false);
  const form = useZodForm({
    initialValues: { station: '', from: '', to: '', interval: '30' },
    schema: adminCreateRinexJobBodySchema,
    // datetime-local gives minutes in the admin's view of UTC; the API takes whole ISO instants.
    toBody: (v) => ({
      userId: customer?.id,
      station: v.station.trim(),
      from: v.from && `${v.from}:00Z`,
      to: v.to && `${v.to}:00Z`,
      interval: Number(v.interval),
      systems: [...RINEX_SYSTEMS],
    }),
    submit: (body) => {
      setMade(false);
      return create.mutateAsync(body);
    },
    onSuccess: () => setMade(true),
    ns: 'rinex',
  });
  const { station, from, to, interval } = form.values;
  return (
    <form onSubmit={form.handleSubmit} className="flex flex-col gap-3" aria-labelledby="admin-rinex-job-title">
      <h2 id="admin-rinex-job-title" className="text-base font-semibold text-ink">
        {t('admin.job.title')}
      </h2>
      <p className="text-sm text-muted">{t('admin.job.text')}</p>
      <div className="grid gap-3 md:grid-cols-5">
        <UserPicker label={t('admin.job.user')} value={customer} onChange={setCustomer} />
        <TextField
          label={t('admin.job.station')}
          value={station}
          onChange={(e) => form.set('station')(e.target.value)}
          error={form.errors.station}
          required
        />
        <TextField
          label={t('admin.job.from')}
          type="datetime-local"
          step={3600}
          value={from}
          onChange={(e) => form.set('from')(e.target.value)}
          error={form.errors.from}
          required
        />
        <TextField
          label={t('admin.job.to')}
          type="datetime-local"
          step={3600}
          value={to}
          onChange={(e) => form.set('to')(e.target.value)}
          error={form.errors.to}
          required
        />
        <SelectField
          label={t('time.interval')}
          value={interval}
          options={RINEX_INTERVALS.map((s) => ({ value: String(s), label: t('time.intervalSeconds', { count: s }) }))}
          onChange={(e) => form.set('interval')(e.target.value)}
        />
      </div>
      {made && <p className="text-sm text-status-green">{t('admin.job.made')}</p>}
      {form.general && (
        <p role="alert" className="text-sm text-status-red">
          {t('admin.job.failed', { message: form.general })}
        </p>
      )}
      <div>
        <Button type="submit" disabled={!customer || form.pending}>
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
