import type { NtripAccount } from '@portal/contract';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { useCopy } from '../../components/CopyControl';
import { CopyValue } from '../../components/CopyValue';
import { Icon } from '../../components/Icon';
import { actionFailedKey } from '../../lib/api-error';
import { useFormat } from '../../lib/format';
import { useReferenceFrameText } from '../catalogue/reference-frame';
import { accountPermissions } from './account-permissions';
import {
  useLastReportedPosition,
  useMountpoints,
  useNetworks,
  useRegeneratePassword,
  useRememberedPosition,
} from './accounts.hooks';
import { type Client, ClientSettings, genericValue, presetText } from './ClientSettings';
import { ConnectionTest } from './ConnectionTest';
import { type ConnectionSettings, genericFields } from './client-presets';
import { MountpointList } from './MountpointList';
import { PositionPicker } from './PositionPicker';
import { type RoverPosition, recommendMountpoint, type StationMountpoint } from './position';
import { RtcmProfileSection } from './RtcmProfile';
import { relayAddress } from './relay';

/** A text button that copies, with the same 2-second confirmation as the copy control (spec §4). */
function CopyAllButton({ value }: { value: string }) {
  const { t } = useTranslation('accounts');
  const { copied, copy } = useCopy(value);
  return (
    <Button variant="secondary" onClick={copy}>
      <Icon name={copied ? 'check' : 'copy'} size={16} className={copied ? 'text-status-green' : undefined} />
      {copied ? t('card.copiedAll') : t('card.copyAll')}
    </Button>
  );
}

/** The password: shown here once after creation or regeneration, otherwise regenerated on request and shown. */
function PasswordField({
  accountId,
  password,
  onPassword,
  canRenew,
}: {
  accountId: string;
  password: string | undefined;
  onPassword: (password: string) => void;
  /** Not for an organisation's account held by another member: only its holder and the managers renew it. */
  canRenew: boolean;
}) {
  const { t } = useTranslation('accounts');
  const regenerate = useRegeneratePassword();
  const [confirming, setConfirming] = useState(false);
  if (password) {
    return (
      <div className="flex flex-col gap-2 sm:col-span-2">
        <CopyValue
          label={t('details.password')}
          value={password}
          copyLabel={t('password.copyPassword')}
          testId="new-password"
        />
        <p
          role="alert"
          className="flex gap-2 rounded-xl border border-status-yellow/40 bg-status-yellow/10 p-3 text-sm text-ink"
        >
          <Icon name="warning" size={18} className="mt-0.5 shrink-0 text-status-yellow" />
          {t('password.warning')}
        </p>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-1 sm:col-span-2">
      <span className="text-xs font-medium text-subtle">{t('details.password')}</span>
      {confirming ? (
        <div className="flex flex-col gap-2 rounded-xl border border-status-yellow/40 bg-status-yellow/10 p-3 text-sm">
          <p>{t('regenerate.text')}</p>
          {regenerate.isError && (
            <p role="alert" className="text-status-red">
              {t(actionFailedKey(regenerate.error))}
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            <Button size="sm" variant="secondary" onClick={() => setConfirming(false)}>
              {t('actions.cancel')}
            </Button>
            <Button
              size="sm"
              disabled={regenerate.isPending}
              onClick={() =>
                regenerate.mutate(accountId, {
                  onSuccess: (result) => {
                    setConfirming(false);
                    onPassword(result.password);
                  },
                })
              }
            >
              {t('regenerate.confirm')}
            </Button>
          </div>
        </div>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <span className="text-sm text-muted">{t('details.passwordHidden')}</span>
          {canRenew && (
            <Button size="sm" variant="secondary" onClick={() => setConfirming(true)}>
              {t('card.regenerateAndShow')}
            </Button>
          )}
        </div>
      )}
    </div>
  );
}

/** What the card hands over when the user asks to activate a network from it. */
export interface ActivateFromCard {
  accountId: string;
  position?: RoverPosition;
  /** A password shown in the card, so it can be shown again when the user comes back. */
  password?: string;
}

/**
 * Everything a rover needs for one account in one place (issue 17): caster host and port, username, the password
 * (shown here once), the recommended mountpoint and the full list, and ready-to-use settings for common clients.
 * An account without access says so, with an "Activate" button when the page offers one.
 */
export function ConnectionCard({
  account,
  password,
  onActivate,
}: {
  account: NtripAccount;
  password?: string;
  onActivate?: (context: ActivateFromCard) => void;
}) {
  const { t } = useTranslation('accounts');
  const format = useFormat();
  const relay = relayAddress();
  const mountpoints = useMountpoints(account.id);
  const networks = useNetworks();
  const frameText = useReferenceFrameText();
  const [secret, setSecret] = useState(password);
  const [position, setPosition] = useRememberedPosition(account.id);
  const reported = useLastReportedPosition(account.id);
  const [picked, setPicked] = useState<string>();
  const [client, setClient] = useState<Client>('str2str');

  const items = mountpoints.data ?? [];
  const stations = useMemo(
    () =>
      items.filter((m): m is StationMountpoint => m.kind === 'station' && m.latitude !== null && m.longitude !== null),
    [items],
  );
  const recommended = recommendMountpoint(items, position);
  // With no station online nothing is recommended; the settings still show one, for a rover set up in advance.
  const fallback = recommended ?? recommendMountpoint(items, position, { offline: true });
  // A choice that is no longer offered (access ended) falls back to the recommendation.
  const chosen = items.find((m) => m.mountpoint === picked) ?? items.find((m) => m.mountpoint === fallback?.mountpoint);
  // The frame the rover's coordinates come out in: a private network is not listed, so it says nothing of one.
  const chosenNetwork = chosen && networks.data?.find((n) => n.slug === chosen.networkSlug);
  const settings: ConnectionSettings | undefined = chosen && {
    ...relay,
    username: account.username,
    password: secret,
    mountpoint: chosen.mountpoint,
    near: chosen.kind === 'near',
    position,
  };
  const copyAll = settings
    ? [
        ...genericFields(settings).map(
          ({ field, value }) => `${t(`card.generic.${field}`)}: ${genericValue(t, field, value)}`,
        ),
        ...(client === 'generic' ? [] : ['', `${t(`card.clients.${client}`)}:`, presetText(t, client, settings)]),
      ].join('\n')
    : '';

  return (
    <div className="flex flex-col gap-5" data-testid="connection-card">
      <div className="grid gap-3 sm:grid-cols-2">
        <CopyValue
          label={t('details.host')}
          value={relay.host}
          copyLabel={t('details.copyHost')}
          testId="caster-host"
        />
        <CopyValue
          label={t('details.port')}
          value={String(relay.port)}
          copyLabel={t('details.copyPort')}
          testId="caster-port"
        />
        <CopyValue
          label={t('details.tlsPort')}
          value={String(relay.tlsPort)}
          copyLabel={t('details.copyTlsPort')}
          testId="caster-tls-port"
        />
        <CopyValue
          label={t('details.username')}
          value={account.username}
          copyLabel={t('details.copyUsername')}
          testId="new-username"
        />
        <PasswordField
          accountId={account.id}
          password={secret}
          onPassword={setSecret}
          canRenew={accountPermissions(account).renewPassword}
        />
      </div>

      {mountpoints.isSuccess && (
        // Also without access: the position picks the network to activate.
        <PositionPicker stations={stations} position={position} reported={reported} onChange={setPosition} />
      )}
      {mountpoints.isSuccess && items.length === 0 ? (
        <div
          data-testid="card-no-access"
          className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-status-yellow/40 bg-status-yellow/10 px-4 py-4 text-sm text-ink"
        >
          <p>{account.status === 'disabled' ? t('card.disabled') : t('details.noMountpoints')}</p>
          {onActivate && account.status !== 'disabled' && (
            <Button size="sm" onClick={() => onActivate({ accountId: account.id, position, password: secret })}>
              {t('actions.activateShort')}
            </Button>
          )}
        </div>
      ) : (
        <>
          {!recommended && stations.length > 0 && (
            <p
              data-testid="none-online"
              className="rounded-xl border border-status-yellow/40 bg-status-yellow/10 p-3 text-sm text-ink"
            >
              {t('card.noneOnline')}
            </p>
          )}
          {recommended && (
            <section className="flex flex-col gap-1 rounded-xl border border-accent/40 bg-accent/5 p-3">
              <CopyValue
                label={t('card.recommended')}
                value={recommended.mountpoint}
                copyLabel={t('details.copyMountpoint', { mountpoint: recommended.mountpoint })}
                testId="recommended-mountpoint"
              />
              <p className="text-xs text-muted">
                {recommended.kind === 'near'
                  ? t('card.recommendedNear', {
                      station: recommended.station.mountpoint,
                      place: recommended.station.identifier,
                      km: format.number(Math.round(recommended.distanceKm * 10) / 10),
                    })
                  : t('card.recommendedStation', { place: recommended.station.identifier })}
              </p>
            </section>
          )}
          <MountpointList mountpoints={items} position={position} chosen={chosen?.mountpoint} onChoose={setPicked} />
          {chosenNetwork && (
            <p data-testid="card-frame" className="text-sm text-muted">
              {t('card.frame', { network: chosenNetwork.name, frame: frameText(chosenNetwork.referenceFrame) })}
            </p>
          )}
          {settings && <ClientSettings settings={settings} client={client} onClient={setClient} />}
          {settings && (
            <div className="flex flex-wrap gap-2">
              <CopyAllButton value={copyAll} />
            </div>
          )}
          {settings && <ConnectionTest account={account} mountpoint={settings.mountpoint} position={position} />}
        </>
      )}
      <RtcmProfileSection account={account} />
      <section className="rounded-xl border border-line bg-raised/50 p-3">
        <h3 className="text-sm font-semibold text-ink">{t('details.versionsTitle')}</h3>
        <p className="mt-1 text-xs text-muted">{t('details.versions')}</p>
        <p className="mt-1 text-xs text-muted">{t('details.maxConnections', { count: account.maxConnections })}</p>
      </section>
    </div>
  );
}
