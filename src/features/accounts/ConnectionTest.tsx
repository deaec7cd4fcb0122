import {
  CONNECTION_TEST_SECONDS,
  type ConnectionTestMessage,
  type ConnectionTestResult,
  type NtripAccount,
} from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { apiError } from '../../lib/api';
import { useFormat } from '../../lib/format';
import { useTestConnection } from './accounts.hooks';
import type { RoverPosition } from './position';

/** What one RTCM 3 message is for, in the user's words. */
function useMeaning() {
  const { t } = useTranslation('accounts');
  return (m: ConnectionTestMessage) => {
    if (m.kind === 'station') return t(m.type === 1006 ? 'test.meaning.station1006' : 'test.meaning.station');
    if (m.kind === 'msm') return t('test.meaning.msm', { constellation: m.constellation, msm: m.msm });
    if (m.kind === 'ephemeris' || m.kind === 'legacy_observations') {
      return t(`test.meaning.${m.kind}`, { constellation: m.constellation });
    }
    return t(`test.meaning.${m.kind}`);
  };
}

function Result({ result }: { result: ConnectionTestResult }) {
  const { t } = useTranslation('accounts');
  const format = useFormat();
  const meaning = useMeaning();
  const seconds = (ms: number) => format.number(Math.round(ms / 100) / 10);
  if (!result.ok) {
    return (
      <div
        role="alert"
        data-testid="connection-test-result"
        className="flex flex-col gap-1 rounded-xl border border-status-red/40 bg-status-red/10 p-3 text-sm text-ink"
      >
        <p className="font-semibold">{t('test.failedTitle')}</p>
        <p>
          {t(`test.reasons.${result.reason ?? 'caster_error'}`, {
            mountpoint: result.mountpoint,
            seconds: CONNECTION_TEST_SECONDS,
            answer: result.casterAnswer ?? '—',
          })}
        </p>
        {result.casterAnswer && (
          <p className="text-xs text-muted">{t('test.casterAnswered', { answer: result.casterAnswer })}</p>
        )}
      </div>
    );
  }
  return (
    <div
      data-testid="connection-test-result"
      className="flex flex-col gap-3 rounded-xl border border-status-green/40 bg-status-green/10 p-3 text-sm text-ink"
    >
      <p className="flex items-center gap-2 font-semibold">
        <Icon name="check" size={16} className="text-status-green" />
        {t('test.okTitle', { mountpoint: result.mountpoint })}
      </p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        <dt className="text-muted">{t('test.casterAnswer')}</dt>
        <dd className="font-mono">{result.casterAnswer}</dd>
        <dt className="text-muted">{t('test.received')}</dt>
        <dd>
          {t('test.receivedValue', {
            frames: format.number(result.frames),
            bytes: format.bytes(result.bytes),
            seconds: seconds(result.durationMs),
          })}
        </dd>
        {result.firstFrameAfterMs !== null && (
          <>
            <dt className="text-muted">{t('test.firstFrame')}</dt>
            <dd>{t('test.secondsValue', { seconds: seconds(result.firstFrameAfterMs) })}</dd>
          </>
        )}
        {result.lastFrameAgeMs !== null && (
          <>
            <dt className="text-muted">{t('test.lastFrame')}</dt>
            <dd>{t('test.secondsAgo', { seconds: seconds(result.lastFrameAgeMs) })}</dd>
          </>
        )}
        {result.observationAgeSeconds !== null && (
          <>
            <dt className="text-muted">{t('test.observationAge')}</dt>
            <dd>
              {Math.abs(result.observationAgeSeconds) <= 60
                ? t('test.observationAgeValue', {
                    seconds: format.number(Math.round(result.observationAgeSeconds * 10) / 10),
                  })
                : t('test.observationOld', {
                    duration: format.duration(Math.round(Math.abs(result.observationAgeSeconds))),
                  })}
            </dd>
          </>
        )}
        {result.stationId !== null && (
          <>
            <dt className="text-muted">{t('test.stationId')}</dt>
            <dd>{result.stationId}</dd>
          </>
        )}
        {result.satellites.length > 0 && (
          <>
            <dt className="text-muted">{t('test.satellites')}</dt>
            <dd data-testid="connection-test-satellites">
              {result.satellites.map((s) => `${s.constellation} ${s.count}`).join(' · ')}
            </dd>
          </>
        )}
      </dl>
      <table className="w-full text-left text-xs" data-testid="connection-test-messages">
        <caption className="sr-only">{t('test.messagesCaption')}</caption>
        <thead className="text-muted">
          <tr>
            <th scope="col" className="py-1 pr-2 font-medium">
              {t('test.type')}
            </th>
            <th scope="col" className="py-1 pr-2 font-medium">
              {t('test.meaningHeader')}
            </th>
            <th scope="col" className="py-1 text-right font-medium">
              {t('test.count')}
            </th>
          </tr>
        </thead>
        <tbody>
          {result.messages.map((m) => (
            <tr key={m.type} className="border-t border-line">
              <td className="py-1 pr-2 font-mono">{m.type}</td>
              <td className="py-1 pr-2">{meaning(m)}</td>
              <td className="py-1 text-right tabular-nums">{format.number(m.count)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * "Test connection": the server logs in to the caster as this account on the chosen mountpoint (with a one-time
 * credential, outside the account's connection limit) and shows what came back, or why nothing did.
 */
export function ConnectionTest({
  account,
  mountpoint,
  position,
}: {
  account: NtripAccount;
  mountpoint: string;
  position: RoverPosition | undefined;
}) {
  const { t } = useTranslation('accounts');
  const test = useTestConnection(account.id);
  const error = test.isError ? apiError(test.error) : undefined;
  // The result belongs to the mountpoint it was run on; choosing another one hides it.
  const result = test.data?.mountpoint === mountpoint ? test.data : undefined;
  return (
    <section className="flex flex-col gap-2" aria-labelledby="connection-test-title">
      <div className="flex flex-wrap items-center gap-3">
        <h3 id="connection-test-title" className="text-sm font-semibold text-ink">
          {t('test.title')}
        </h3>
        <Button
          size="sm"
          variant="secondary"
          disabled={test.isPending}
          onClick={() =>
            test.mutate({
              mountpoint,
              ...(position && { position: { latitude: position.latitude, longitude: position.longitude } }),
            })
          }
        >
          {test.isPending ? t('test.running', { seconds: CONNECTION_TEST_SECONDS }) : t('test.run', { mountpoint })}
        </Button>
      </div>
      <p className="text-xs text-muted">{t('test.hint', { seconds: CONNECTION_TEST_SECONDS })}</p>
      {test.isError && (
        <p role="alert" className="text-sm text-status-red">
          {error?.status === 429 ? t('test.rateLimited') : t('test.requestFailed')}
        </p>
      )}
      {result && !test.isPending && <Result result={result} />}
    </section>
  );
}
