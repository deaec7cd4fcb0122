/**
 * RINEX 3 long file names (RINEX 3.04 section 4): SSSSMRCCC_S_YYYYDDDHHMM_PPU_FFU_TT.rnx[.gz], e.g.
 * AMAK00FIN_R_20261860000_01H_01S_MO.rnx.gz. Every part is built from letters and digits only, so a station name
 * from outside can never smuggle a path into it.
 */
import type { GnssSystem } from '../obs/signals.ts';

export interface RinexFileNameOptions {
  /** Station: its 9-character ID, or a mountpoint holding one (rinexStationId); otherwise its first 4 letters. */
  station: string;
  /** ISO 3166-1 alpha-3 country code when `station` is a 4-character site; XXX when unknown. */
  country?: string;
  /** Nominal start of the file (its UTC calendar fields: the archive's hour). */
  start: Date;
  /** File period, seconds (3600 → 01H, 86400 → 01D, 900 → 15M). */
  period: number;
  /** Observation interval, seconds (1 → 01S, 30 → 30S); ignored for navigation files. */
  interval?: number;
  /** 'O' observation or 'N' navigation. */
  kind: 'O' | 'N';
  /** Constellations in the file: one makes e.g. GO, several MO. */
  systems?: readonly GnssSystem[];
  /** R receiver (default), S stream, U unknown. */
  source?: 'R' | 'S' | 'U';
  gzip?: boolean;
}

function clean(text: string): string {
  return text.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

function duration(seconds: number): string {
  const units: ReadonlyArray<readonly [number, string]> = [
    [86_400, 'D'],
    [3600, 'H'],
    [60, 'M'],
    [1, 'S'],
  ];
  for (const [size, unit] of units) {
    if (seconds >= size && seconds % size === 0 && seconds / size < 100) {
      return `${String(seconds / size).padStart(2, '0')}${unit}`;
    }
  }
  return '00U';
}

/**
 * A RINEX 3 station ID: 4 characters of site, a monument digit, a receiver character and the ISO alpha-3 country,
 * optionally followed by one stream digit, as IGS and EUREF name their mountpoints (ZWOL03NLD0 is ZWOL03NLD).
 */
const NINE_CHARACTER_ID = /^([A-Z0-9]{4}[0-9][A-Z0-9][A-Z]{3})[0-9]?$/;

/**
 * The station's own 9-character ID from its name or mountpoint; without one, its first 4 letters with monument and
 * receiver 00 and the country. Two stations that share a 9-character ID share file names, so mountpoints that are
 * 9-character IDs (with a stream digit) keep the name each station's own.
 */
export function rinexStationId(station: string, country?: string): string {
  const id = clean(station);
  const own = NINE_CHARACTER_ID.exec(id)?.[1];
  if (own) return own;
  return `${id.slice(0, 4).padEnd(4, 'X')}00${clean(country ?? 'XXX')
    .slice(0, 3)
    .padEnd(3, 'X')}`;
}

export function rinexObsFileName(o: RinexFileNameOptions): string {
  const site = rinexStationId(o.station, o.country);
  const s = o.start;
  const doy =
    Math.floor(
      (Date.UTC(s.getUTCFullYear(), s.getUTCMonth(), s.getUTCDate()) - Date.UTC(s.getUTCFullYear(), 0, 1)) / 86_400_000,
    ) + 1;
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const start = `${s.getUTCFullYear()}${p(doy, 3)}${p(s.getUTCHours())}${p(s.getUTCMinutes())}`;
  const systems = o.systems ?? [];
  const type = `${systems.length === 1 ? systems[0] : 'M'}${o.kind}`;
  const frequency = o.kind === 'O' ? `_${duration(o.interval ?? 1)}` : '';
  return `${site}_${o.source ?? 'R'}_${start}_${duration(o.period)}${frequency}_${type}.rnx${o.gzip ? '.gz' : ''}`;
}
