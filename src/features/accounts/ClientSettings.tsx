import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { CopyValue } from '../../components/CopyValue';
import { TabSwitch } from '../../components/TabSwitch';
import {
  type ConnectionSettings,
  EMLID_GGA_CHECKBOX,
  emlidReachFields,
  type GenericField,
  GGA_INTERVAL_MS,
  genericFields,
  LOCAL_CERTIFICATE_FILE,
  needsPosition,
  PASSWORD_PLACEHOLDER,
  RTKRCV_RELAY_PORT,
  rtkrcvOptions,
  rtkrcvRelayOptions,
  STR2STR_OUTPUT,
  STUNNEL_CA_FILE,
  STUNNEL_COMMAND,
  STUNNEL_CONFIG_FILE,
  STUNNEL_LOCAL_CA_LINE,
  STUNNEL_LOCAL_PORT,
  SW_MAPS_GGA_SWITCH,
  str2strCommand,
  str2strRelayCommand,
  str2strViaStunnelCommand,
  stunnelConfig,
  swMapsFields,
} from './client-presets';

export const CLIENTS = ['str2str', 'rtkrcv', 'emlid', 'swmaps', 'tls', 'generic'] as const;
export type Client = (typeof CLIENTS)[number];

/**
 * The clients that send a position typed here. RTKLIB sends the one on its command line or in its configuration;
 * the apps send their own receiver's, so their settings work without one.
 */
const SENDS_TYPED_POSITION: ReadonlySet<Client> = new Set(['str2str', 'rtkrcv']);

/** The value of a generic field as a person reads it. */
export function genericValue(t: TFunction<'accounts'>, field: GenericField, value: string): string {
  if (field === 'gga')
    return value === 'on' ? t('card.generic.ggaOn', { seconds: GGA_INTERVAL_MS / 1000 }) : t('card.generic.ggaOff');
  if (field === 'version') return t('card.generic.versionValue');
  return value;
}

/** The preset of one client as plain text, for "copy all". */
export function presetText(t: TFunction<'accounts'>, client: Client, settings: ConnectionSettings): string {
  if (client === 'str2str') return str2strCommand(settings) ?? '';
  if (client === 'rtkrcv') return rtkrcvOptions(settings) ?? '';
  if (client === 'tls') {
    return [
      `${t('card.tls.port')}: ${settings.tlsPort}`,
      '',
      `${t('card.tls.configLabel', { file: STUNNEL_CONFIG_FILE })}:`,
      stunnelConfig(settings),
      '',
      STUNNEL_COMMAND,
      str2strViaStunnelCommand(settings) ?? '',
    ].join('\n');
  }
  if (client === 'emlid') {
    return [
      ...emlidReachFields(settings).map(({ label, value }) => `${label}: ${value}`),
      `${EMLID_GGA_CHECKBOX}: ${t(settings.near ? 'card.emlid.tick' : 'card.emlid.noTick')}`,
    ].join('\n');
  }
  if (client === 'swmaps') {
    return [
      ...swMapsFields(settings).map(({ label, value }) => `${label}: ${value}`),
      `${SW_MAPS_GGA_SWITCH}: ${t(settings.near ? 'card.swmaps.on' : 'card.swmaps.off')}`,
    ].join('\n');
  }
  return genericFields(settings)
    .map(({ field, value }) => `${t(`card.generic.${field}`)}: ${genericValue(t, field, value)}`)
    .join('\n');
}

/** Ready-to-use settings for one client at a time, each value with its copy control. */
export function ClientSettings({
  settings,
  client,
  onClient,
}: {
  settings: ConnectionSettings;
  client: Client;
  onClient: (client: Client) => void;
}) {
  const { t } = useTranslation('accounts');
  const passwordHint = settings.password === undefined && (
    <p className="text-xs text-muted">{t('card.replacePassword', { placeholder: PASSWORD_PLACEHOLDER })}</p>
  );
  let body: React.ReactNode;
  if (SENDS_TYPED_POSITION.has(client) && needsPosition(settings)) {
    body = (
      <p role="alert" className="rounded-xl border border-status-yellow/40 bg-status-yellow/10 p-3 text-sm text-ink">
        {t('card.needsPosition', { mountpoint: settings.mountpoint })}
      </p>
    );
  } else if (client === 'str2str') {
    body = (
      <>
        <CopyValue
          multiline
          label={t('card.str2str.label')}
          value={str2strCommand(settings) ?? ''}
          copyLabel={t('card.str2str.copy')}
          testId="str2str-line"
        />
        {passwordHint}
        {settings.near && (
          <p className="text-xs text-muted">{t('card.str2str.gga', { seconds: GGA_INTERVAL_MS / 1000 })}</p>
        )}
        <p className="text-xs text-muted">{t('card.str2str.output', { output: STR2STR_OUTPUT })}</p>
      </>
    );
  } else if (client === 'rtkrcv') {
    body = (
      <>
        <CopyValue
          multiline
          label={t('card.rtkrcv.label')}
          value={rtkrcvOptions(settings) ?? ''}
          copyLabel={t('card.rtkrcv.copy')}
          testId="rtkrcv-options"
        />
        {passwordHint}
        <p className="text-xs text-muted">{t('card.rtkrcv.hint')}</p>
        <p className="text-xs text-muted">{t('card.rtkrcv.debian', { port: RTKRCV_RELAY_PORT })}</p>
        <CopyValue
          multiline
          label={t('card.rtkrcv.relayCommand')}
          value={str2strRelayCommand(settings) ?? ''}
          copyLabel={t('card.str2str.copy')}
          testId="rtkrcv-relay-command"
        />
        <CopyValue
          multiline
          label={t('card.rtkrcv.relayLabel')}
          value={rtkrcvRelayOptions()}
          copyLabel={t('card.rtkrcv.copy')}
          testId="rtkrcv-relay-options"
        />
      </>
    );
  } else if (client === 'tls') {
    body = (
      <>
        <CopyValue
          label={t('card.tls.port')}
          value={String(settings.tlsPort)}
          copyLabel={t('card.copyField', { field: t('card.tls.port') })}
          testId="tls-port"
        />
        <p className="text-xs text-muted">{t('card.tls.clients')}</p>
        <p className="text-xs text-muted">{t('card.tls.stunnel', { port: STUNNEL_LOCAL_PORT })}</p>
        <CopyValue
          multiline
          label={t('card.tls.configLabel', { file: STUNNEL_CONFIG_FILE })}
          value={stunnelConfig(settings)}
          copyLabel={t('card.tls.copyConfig')}
          testId="stunnel-config"
        />
        <p className="text-xs text-muted">{t('card.tls.caFile', { file: STUNNEL_CA_FILE })}</p>
        <p className="text-xs text-muted">{t('card.tls.selfSigned', { file: LOCAL_CERTIFICATE_FILE })}</p>
        <CopyValue
          label={t('card.tls.localCaLabel')}
          value={STUNNEL_LOCAL_CA_LINE}
          copyLabel={t('card.tls.copyLocalCa')}
          testId="stunnel-local-ca"
        />
        <CopyValue
          label={t('card.tls.commandLabel')}
          value={STUNNEL_COMMAND}
          copyLabel={t('card.tls.copyCommand')}
          testId="stunnel-command"
        />
        {needsPosition(settings) ? (
          <p
            role="alert"
            className="rounded-xl border border-status-yellow/40 bg-status-yellow/10 p-3 text-sm text-ink"
          >
            {t('card.needsPosition', { mountpoint: settings.mountpoint })}
          </p>
        ) : (
          <CopyValue
            multiline
            label={t('card.tls.str2strLabel')}
            value={str2strViaStunnelCommand(settings) ?? ''}
            copyLabel={t('card.str2str.copy')}
            testId="stunnel-str2str-line"
          />
        )}
        {passwordHint}
      </>
    );
  } else if (client === 'emlid') {
    body = (
      <>
        <p className="text-xs text-muted">{t('card.emlid.where')}</p>
        <div className="grid gap-3 sm:grid-cols-2">
          {emlidReachFields(settings).map(({ label, value }) => (
            <CopyValue
              key={label}
              label={label}
              value={value}
              copyLabel={t('card.copyField', { field: label })}
              testId={`emlid-${label}`}
            />
          ))}
        </div>
        <p className="text-sm text-ink" data-testid="emlid-gga">
          {EMLID_GGA_CHECKBOX}: <strong>{t(settings.near ? 'card.emlid.tick' : 'card.emlid.noTick')}</strong>
        </p>
        {passwordHint}
      </>
    );
  } else if (client === 'swmaps') {
    body = (
      <div className="flex flex-col gap-3" data-testid="swmaps-preset">
        <p className="text-xs text-muted">{t('card.swmaps.where')}</p>
        <div className="grid gap-3 sm:grid-cols-2">
          {swMapsFields(settings).map(({ label, value }) => (
            <CopyValue
              key={label}
              label={label}
              value={value}
              copyLabel={t('card.copyField', { field: label })}
              testId={`swmaps-${label}`}
            />
          ))}
        </div>
        <p className="text-sm text-ink" data-testid="swmaps-gga">
          {SW_MAPS_GGA_SWITCH}: <strong>{t(settings.near ? 'card.swmaps.on' : 'card.swmaps.off')}</strong>
        </p>
        {passwordHint}
      </div>
    );
  } else {
    body = (
      <>
        <div className="grid gap-3 sm:grid-cols-2">
          {genericFields(settings).map(({ field, value }) => (
            <CopyValue
              key={field}
              label={t(`card.generic.${field}`)}
              value={genericValue(t, field, value)}
              copyLabel={t('card.copyField', { field: t(`card.generic.${field}`) })}
              testId={`generic-${field}`}
            />
          ))}
        </div>
        {passwordHint}
      </>
    );
  }
  return (
    <section className="flex flex-col gap-3" aria-labelledby="client-settings-title">
      <h3 id="client-settings-title" className="text-sm font-semibold text-ink">
        {t('card.clientsTitle', { mountpoint: settings.mountpoint })}
      </h3>
      <TabSwitch<Client>
        label={t('card.clientsLabel')}
        initial={client}
        onChange={onClient}
        options={CLIENTS.map((c) => ({ value: c, label: t(`card.clients.${c}`) }))}
      />
      {body}
    </section>
  );
}
