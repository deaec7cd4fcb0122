import type { RoverPosition } from './position';

/**
 * Ready-to-use settings for NTRIP clients, built from one account's connection. Each format is checked by a test:
 * the RTKLIB lines by running str2str and rtkrcv against a real caster (tests/e2e/connection-card.e2e.ts,
 * server/test/ntrip-accounts/rtklib-presets.test.ts), the others against the client's documented format
 * (tests/unit/accounts/fixtures/client-formats.json). docs/adr/0017-connection-card.md says why these values.
 */

export interface ConnectionSettings {
  host: string;
  port: number;
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
 * (less a second), so 5 s gets the position to the caster well inside the 15 s it waits for one.
 */
export const GGA_INTERVAL_MS = 5000;
/** Where the str2str line writes the corrections (a file in the directory it runs in). */
export const STR2STR_OUTPUT = 'file://corrections.rtcm3';

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
export function str2strCommand(s: ConnectionSettings): string | undefined {
  if (needsPosition(s)) return undefined;
  const input = `ntrip://${s.username}:${password(s)}@${s.host}:${s.port}/${s.mountpoint}`;
  const gga =
    s.near && s.position
      ? ` -p ${degrees(s.position.latitude)} ${degrees(s.position.longitude)} ${metres(s.position.height)} -n ${GGA_INTERVAL_MS}`
      : '';
  return `str2str -in ${input}${gga} -out ${STR2STR_OUTPUT}`;
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
