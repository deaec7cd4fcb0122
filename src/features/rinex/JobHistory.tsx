import type { RinexJob } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { buttonClass } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { useFormat } from '../../lib/format';

const utc = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;

const statusTone: Record<RinexJob['status'], string> = {
  queued: 'text-muted',
  running: 'text-status-blue',
  done: 'text-status-green',
  failed: 'text-status-red',
  expired: 'text-subtle',
};

function JobRow({ job }: { job: RinexJob }) {
  const { t } = useTranslation('rinex');
  const format = useFormat();
  const percent = Math.round(job.progress * 100);
  const charge =
    job.charge === 'tokens'
      ? t('jobs.charged', { count: job.tokensCharged })
      : t(job.charge === 'plan' ? 'jobs.chargePlan' : job.charge === 'admin' ? 'jobs.chargeAdmin' : 'jobs.chargeFree');
  const date = format.dateTime;
  const open = job.status === 'queued' || job.status === 'running';
  return (
    <li className="flex flex-col gap-2 py-3" data-testid="rinex-job" data-status={job.status}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-sm font-semibold text-ink">
            <span className="font-mono">{job.station.mountpoint}</span>
            <span className="font-normal text-muted">
              {' '}
              · {t('jobs.window', { from: utc(job.from), to: utc(job.to) })}
            </span>
          </p>
          <p className="text-xs text-muted">
            {t('jobs.details', {
              interval: job.interval,
              systems: job.systems.join(''),
              hours: job.hoursWithData,
            })}{' '}
            · {charge}
            {job.organizationId && ` · ${t('jobs.organization')}`}
          </p>
        </div>
        <div className="flex items-center gap-3">
          <span className={`text-sm font-medium ${statusTone[job.status]}`}>
            {job.status === 'running' ? t('jobs.running', { percent }) : t(`jobs.${job.status}` as 'jobs.done')}
          </span>
          {job.status === 'done' && job.downloadUrl && (
            <a href={job.downloadUrl} download className={buttonClass('primary', 'sm')} data-testid="rinex-download">
              <Icon name="external" size={14} />
              {t('jobs.download')}
            </a>
          )}
        </div>
      </div>
      {open && (
        <div
          role="progressbar"
          aria-label={t('jobs.progress')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="h-2 overflow-hidden rounded-full bg-line"
        >
          <div className="h-full rounded-full bg-accent transition-[width]" style={{ width: `${percent}%` }} />
        </div>
      )}
      {job.status === 'done' && job.result && (
        <p className="text-xs text-muted">
          {t('jobs.epochs', { count: job.result.epochs, size: format.bytes(job.result.bytes) })}
          {job.expiresAt && ` · ${t('jobs.expires', { date: date(job.expiresAt) })}`}
        </p>
      )}
      {job.status === 'failed' && (
        <p className="text-xs text-status-red">
          {t(job.error?.code === 'conversion_no_data_in_window' ? 'jobs.errorNoData' : 'jobs.errorOther')}
          {job.tokensRefunded > 0 && ` ${t('jobs.refunded', { count: job.tokensRefunded })}`}
        </p>
      )}
    </li>
  );
}

/** What the user bought, newest first: progress while converting, the download until it expires. */
export function JobHistory({ jobs }: { jobs: RinexJob[] }) {
  const { t } = useTranslation('rinex');
  if (jobs.length === 0) return <p className="text-sm text-muted">{t('jobs.empty')}</p>;
  return (
    <ul className="divide-y divide-line" aria-label={t('jobs.title')}>
      {jobs.map((job) => (
        <JobRow key={job.id} job={job} />
      ))}
    </ul>
  );
}
