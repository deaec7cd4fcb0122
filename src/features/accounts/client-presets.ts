import type { RoverPosition } from './position';

/**
 * Ready-to-use settings for NTRIP clients, built from one account's connection. Each format is checked by a test:
 * the RTKLIB lines as shown in the page, by running str2str and rtkrcv against the real caster
 * (tests/e2e/connection-card.e2e.ts), Emlid's against a recorded copy of Emlid's documentation and SW Maps' against
 * one of a receiver maker's guide to it (tests/unit/accounts/fixtures/). docs/adr/0022-connection-card.md says why these values.
 */

export interface ConnectionSettings {
  host: string;
  port: number;
  /** The caster's NTRIP-over-TLS port (ADR 0076). */
  tlsPort: number;
  username: string;
  /** Known only right after creation or regeneration; otherwise the placeholder stands in. */
  password?: string;
  mountpoint: string;
  /** The nearest-station mountpoint: the client must send its position (NMEA GGA) or it receives nothing. */
  near: boolean;
  position?: RoverPosition;
}

/** Stands for the password in every preset until it is known; the user replaces it, brackets included. */
export const PASSWORD_PLACEHOLDER = '<password>';
/**
 * How often a client repeats its position. The first GGA of str2str and rtkrcv goes out one cycle after they start
 * (less a second), so 5 s gets the position to the caster inside the 8 s it waits for one.
 */
export const GGA_INTERVAL_MS = 5000;
/** Where the str2str line writes the corrections (a file in the directory it runs in). */
export const STR2STR_OUTPUT = 'file://corrections.rtcm3';
/**
 * Where str2str hands the corrections to rtkrcv on this computer when rtkrcv's own NTRIP client cannot be used:
 * Debian's and Ubuntu's rtklib 2.4.3 b34 builds rtkrcv with `ntripcli` (option 7) opening an FTP download.
 */
export const RTKRCV_RELAY_PORT = 2102;

const degrees = (value: number) => value.toFixed(7);
const metres = (value: number) => value.toFixed(1);
const password = (s: ConnectionSettings) => s.password ?? PASSWORD_PLACEHOLDER;

/** Whether the settings can work at all: a nearest-station mountpoint needs a position to send. */
export function needsPosition(s: ConnectionSettings): boolean {
  return s.near && !s.position;
}

/**
 * RTKLIB str2str (2.4.3): NTRIP client input, `-p lat lon hgt` and `-n msec` make it send a GGA of that position
 * every cycle, which a nearest-station mountpoint needs; the corrections go to a file.
 */
export function str2strCommand(s: ConnectionSettings, output = STR2STR_OUTPUT): string | undefined {
  if (needsPosition(s)) return undefined;
  const input = `ntrip://${s.username}:${password(s)}@${s.host}:${s.port}/${s.mountpoint}`;
  const gga =
    s.near && s.position
      ? ` -p ${degrees(s.position.latitude)} ${degrees(s.position.longitude)} ${metres(s.position.height)} -n ${GGA_INTERVAL_MS}`
      : '';
  return `str2str -in ${input}${gga} -out ${output}`;
}

/** One rtkrcv option line as RTKLIB writes its configuration files (`name =value`, names padded to 18). */
const option = (name: string, value: string) => `${name.padEnd(18)} =${value}`;

/**
 * RTKLIB rtkrcv (2.4.3): the base-station input (stream 2) of a configuration file. With a nearest-station
 * mountpoint, `nmeareq=latlon` sends the given position every `misc-nmeacycle` ms.
 */
export function rtkrcvOptions(s: ConnectionSettings): string | undefined {
  if (needsPosition(s)) return undefined;
  const lines = [
    option('inpstr2-type', 'ntripcli'),
    option('inpstr2-path', `${s.username}:${password(s)}@${s.host}:${s.port}/${s.mountpoint}`),
    option('inpstr2-format', 'rtcm3'),
  ];
  if (s.near && s.position) {
    lines.push(
      option('inpstr2-nmeareq', 'latlon'),
      option('inpstr2-nmealat', degrees(s.position.latitude)),
      option('inpstr2-nmealon', degrees(s.position.longitude)),
      option('inpstr2-nmeahgt', metres(s.position.height)),
      option('misc-nmeacycle', String(GGA_INTERVAL_MS)),
    );
  } else {
    lines.push(option('inpstr2-nmeareq', 'off'));
  }
  return lines.join('\n');
}

/** For rtkrcv without a working NTRIP client: str2str logs in and serves the corrections on a local TCP port. */
export function str2strRelayCommand(s: ConnectionSettings): string | undefined {
  return str2strCommand(s, `tcpsvr://:${RTKRCV_RELAY_PORT}`);
}

/** rtkrcv's base-station input reading what str2strRelayCommand serves. */
export function rtkrcvRelayOptions(): string {
  return [
    option('inpstr2-type', 'tcpcli'),
    option('inpstr2-path', `127.0.0.1:${RTKRCV_RELAY_PORT}`),
    option('inpstr2-format', 'rtcm3'),
    option('inpstr2-nmeareq', 'off'),
  ].join('\n');
}

/**
 * Emlid Reach, Correction input → NTRIP: the values in the order and words of Emlid's documentation of that
 * screen, and its GGA checkbox, ticked for a nearest-station mountpoint (Reach then sends its own single solution).
 */
export const EMLID_GGA_CHECKBOX = 'Send NMEA GGA messages to the corrections provider';

export function emlidReachFields(s: ConnectionSettings): Array<{ label: string; value: string }> {
  return [
    { label: 'IP address or domain name of the caster', value: s.host },
    { label: 'Port', value: String(s.port) },
    { label: 'Username', value: s.username },
    { label: 'Password', value: password(s) },
    { label: 'Mount point', value: s.mountpoint },
    { label: 'Format', value: 'RTCM3' },
  ];
}

/**
 * SW Maps (Softwel), NTRIP Client: the values in the order and words of SparkFun's guide to that window (its maker
 * publishes no description of it that we could find), and its GGA switch, on for a nearest-station mountpoint (the
 * app then sends the connected receiver's position). NTRIP 1, the version of the recorded example; the caster takes
 * both.
 */
export const SW_MAPS_GGA_SWITCH = 'Send NMEA GGA to Base Station';

export function swMapsFields(s: ConnectionSettings): Array<{ label: string; value: string }> {
  return [
    { label: 'NTRIP Version', value: 'V1' },
    { label: 'NTRIP Server', value: s.host },
    { label: 'NTRIP Port', value: String(s.port) },
    { label: 'Mount Point', value: s.mountpoint },
    { label: 'Username', value: s.username },
    { label: 'Password', value: password(s) },
  ];
}

export type GenericField = 'host' | 'port' | 'username' | 'password' | 'mountpoint' | 'version' | 'gga' | 'format';

/** The values any NTRIP client asks for, by meaning; the card labels them in the user's language. */
export function genericFields(s: ConnectionSettings): Array<{ field: GenericField; value: string }> {
  return [
    { field: 'host', value: s.host },
    { field: 'port', value: String(s.port) },
    { field: 'username', value: s.username },
    { field: 'password', value: password(s) },
    { field: 'mountpoint', value: s.mountpoint },
    { field: 'version', value: 'NTRIP 2.0 / NTRIP 1.0' },
    { field: 'gga', value: s.near ? 'on' : 'off' },
    { field: 'format', value: 'RTCM 3' },
  ];
}

/**
 * NTRIP over TLS for a client without TLS (RTKLIB among them): stunnel in client mode on the rover's computer takes
 * plain NTRIP on a local port and carries it over TLS to the caster's TLS port, checking the caster's certificate
 * against the system's CA bundle (Debian's and Ubuntu's path) and its name. The local port is an uncommon one, so a
 * caster or relay already on 2101 of that computer is not in the way.
 */
export const STUNNEL_LOCAL_PORT = 12101;
export const STUNNEL_CONFIG_FILE = 'ntrip-tls.conf';
export const STUNNEL_CA_FILE = '/etc/ssl/certs/ca-certificates.crt';

/**
 * Where `npm start` keeps the self-signed certificate it makes for localhost, from the portal's folder (with the
 * default PGLITE_DATA_DIR; scripts/start.ts). No public authority vouches for it, so stunnel finds it in no system
 * bundle: the card gives this CAfile line instead, for stunnel run from the portal's folder.
 */
export const LOCAL_CERTIFICATE_FILE = 'data/tls/localhost-cert.pem';
export const STUNNEL_LOCAL_CA_LINE = `CAfile = ${LOCAL_CERTIFICATE_FILE}`;

/** stunnel 5's configuration file for the caster's TLS port; `foreground` keeps it in the terminal it runs in. */
export function stunnelConfig(s: ConnectionSettings): string {
  return [
    'foreground = yes',
    '[ntrip]',
    'client = yes',
    `accept = 127.0.0.1:${STUNNEL_LOCAL_PORT}`,
    `connect = ${s.host}:${s.tlsPort}`,
    'verifyChain = yes',
    `CAfile = ${STUNNEL_CA_FILE}`,
    `checkHost = ${s.host}`,
  ].join('\n');
}

/** Starts stunnel with the configuration above, saved under STUNNEL_CONFIG_FILE in the current folder. */
export const STUNNEL_COMMAND = `stunnel ${STUNNEL_CONFIG_FILE}`;

/** The str2str line of the card, logging in through the local end of stunnel instead of the caster's plain port. */
export function str2strViaStunnelCommand(s: ConnectionSettings): string | undefined {
  return str2strCommand({ ...s, host: '127.0.0.1', port: STUNNEL_LOCAL_PORT });
}
