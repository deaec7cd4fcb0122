import type { AdminLiveSession, LiveSession } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../lib/format';
import { useAdminLiveSessions, useLiveSessions } from './diagnostics.hooks';

const NEAR = /_NEAR$/i;

const fixTone: Record<string, string> = {
  fixed: 'bg-status-green/15 text-status-green',
  float: 'bg-status-yellow/15 text-status-yellow',
  dgnss: 'bg-status-blue/15 text-status-blue',
  single: 'bg-status-blue/15 text-status-blue',
  no_fix: 'bg-status-red/15 text-status-red',
  other: 'bg-status-blue/15 text-status-blue',
};

/** How long ago, in whole seconds, by the server's clock of the answer. */
const secondsBetween = (from: string, to: string) =>
  Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000));

function SessionCard({ session, at, account }: { session: LiveSession; at: string; account?: string }) {
  const { t } = useTranslation('diagnostics');
  const format = useFormat();
  const near = NEAR.test(session.mountpoint);
  const served = session.servedStation
    ? session.distanceKm === null
      ? t('live.servedBy', { station: session.servedStation })
      : t('live.servedByAt', {
          station: session.servedStation,
          km: format.number(Math.round(session.distanceKm * 10) / 10),
        })
    : t(session.position ? 'live.noStationOnline' : 'live.waitingForPosition');
  return (
    <li
      data-testid="live-session"
      data-mountpoint={session.mountpoint}
      className="flex flex-col gap-1.5 rounded-xl border border-line bg-raised/50 p-3 text-sm"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="flex flex-wrap items-baseline gap-2">
          {account && <span className="font-mono text-ink">{account}</span>}
          <code className="font-mono font-semibold text-ink">{session.mountpoint}</code>
          {(near || session.servedStation !== session.mountpoint) && (
            <span className="text-muted" data-testid="served-station">
              {served}
            </span>
          )}
        </span>
        {session.fix ? (
          <span
            data-testid="fix-quality"
            className={`rounded-full px-2 py-0.5 text-xs font-medium ${fixTone[session.fix.quality] ?? fixTone.other}`}
          >
            {t(`live.fix.${session.fix.quality}`)}
          </span>
        ) : (
          <span className="text-xs text-subtle">{t('live.noGga')}</span>
        )}
      </div>
      {session.fix && (
        <p className="text-muted">
          {[
            session.fix.ageOfCorrections === null
              ? t('live.noCorrectionAge')
              : t('live.correctionAge', { seconds: format.number(session.fix.ageOfCorrections) }),
            session.fix.satellites === null ? null : t('live.satellites', { count: session.fix.satellites }),
            t('live.reported', { seconds: secondsBetween(session.fix.at, at) }),
          ]
            .filter(Boolean)
            .join(' · ')}
        </p>
      )}
      <p className="text-muted">
        {t('live.since', {
          time: format.dateTime(session.connectedAt),
          duration: format.duration(secondsBetween(session.connectedAt, at)),
        })}{' '}
        · {t('live.sent', { bytes: format.bytes(session.bytesSent) })}
      </p>
      <p className="text-muted" data-testid="session-profile">
        {session.constellations
          ? t('live.profileConstellations', {
              profile: t(`live.profiles.${session.rtcmProfile}`),
              constellations: session.constellations.join(', '),
            })
          : t('live.profile', { profile: t(`live.profiles.${session.rtcmProfile}`) })}
      </p>
      <p className="text-xs text-subtle">
        {t(session.tls ? 'live.clientTls' : 'live.client', {
          address: session.remoteAddress,
          client: session.userAgent ?? t('refused.unknownClient'),
          version: session.ntripVersion,
        })}
      </p>
    </li>
  );
}

function Incomplete({ complete }: { complete: boolean }) {
  const { t } = useTranslation('diagnostics');
  if (complete) return null;
  return <p className="text-xs text-status-yellow">{t('live.incomplete')}</p>;
}

/**
 * The rovers connected with this account now, on every caster node: who, where from, served by which station and
 * how far, and the fix they report (issue 17). Refreshes every few seconds.
 */
export function LiveSessions({ accountId, admin = false }: { accountId: string; admin?: boolean }) {
  const { t } = useTranslation('diagnostics');
  const live = useLiveSessions(accountId, admin);
  return (
    <section aria-label={t('live.title')} className="flex flex-col gap-3">
      <div className="flex flex-col gap-1">
        <h3 className="text-sm font-semibold text-ink">{t('live.title')}</h3>
        <p className="text-xs text-muted">{t('live.intro')}</p>
      </div>
      {live.isError && !live.data && (
        <p role="alert" className="text-sm text-status-red">
          {t('live.loadError')}
        </p>
      )}
      {live.data && <Incomplete complete={live.data.complete} />}
      {live.data?.items.length === 0 && (
        <p className="rounded-xl border border-dashed border-line px-4 py-6 text-center text-sm text-muted">
          {t('live.empty')}
        </p>
      )}
      {live.data && live.data.items.length > 0 && (
        <ul className="flex flex-col gap-2" aria-live="polite">
          {live.data.items.map((s) => (
            <SessionCard key={s.id} session={s} at={live.data.at} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** Admin: every live session across all accounts and caster nodes. */
export function AdminLiveSessionsSection() {
  const { t } = useTranslation('diagnostics');
  const live = useAdminLiveSessions();
  const label = (s: AdminLiveSession) =>
    s.accountUsername ? `${s.accountUsername}${s.accountLabel ? ` (${s.accountLabel})` : ''}` : s.accountId;
  return (
    <section aria-label={t('live.adminTitle')} className="mt-8 flex flex-col gap-3">
      <div className="flex flex-col gap-1">
        <h2 className="text-lg font-semibold text-ink">{t('live.adminTitle')}</h2>
        <p className="text-sm text-muted">{t('live.adminIntro')}</p>
      </div>
      {live.data && <Incomplete complete={live.data.complete} />}
      {live.data?.items.length === 0 && (
        <p className="rounded-xl border border-dashed border-line px-4 py-6 text-center text-sm text-muted">
          {t('live.adminEmpty')}
        </p>
      )}
      {live.data && live.data.items.length > 0 && (
        <ul className="grid gap-2 lg:grid-cols-2">
          {live.data.items.map((s) => (
            <SessionCard key={s.id} session={s} at={live.data.at} account={label(s)} />
          ))}
        </ul>
      )}
    </section>
  );
}
