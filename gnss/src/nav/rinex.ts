/**
 * RINEX 3.04 navigation message records (tables A8 GPS, A10 GLONASS, A12 Galileo, A14 QZSS, A16 BDS, A18 NavIC):
 * an "SV / EPOCH / SV CLK" line and "BROADCAST ORBIT" lines of four D19.12 numbers each.
 */
import {
  addSeconds,
  BDT_OFFSET_SECONDS,
  BDT_WEEK_OFFSET,
  type Calendar,
  diffSeconds,
  type GpsTime,
  gpsTime,
  gpstToCalendar,
  leapSecondsAtGpst,
} from '../time.ts';
import type { Ephemeris, GlonassEphemeris, KeplerEphemeris, NavSystem } from './types.ts';

/** Twelve significant digits and the decimal exponent of |value| ≥ 1e-99, rounded half to even. */
function twelveDigits(magnitude: number): { digits: string; exponent: number } {
  // toExponential rounds an exact tie away from zero; a tie shows as 5 followed by zeros in the long expansion
  // (a double that is not a tie differs from one well within 40 digits). GLONASS coordinates, multiples of
  // 2^-11 km, are often exact ties.
  const [longMantissa, longExponent] = magnitude.toExponential(40).split('e') as [string, string];
  const long = longMantissa.replace('.', '');
  if (/^50*$/.test(long.slice(12)) && Number(long[11]) % 2 === 0) {
    return { digits: long.slice(0, 12), exponent: Number(longExponent) };
  }
  const [mantissa, exponent] = magnitude.toExponential(11).split('e') as [string, string];
  return { digits: mantissa.replace('.', ''), exponent: Number(exponent) };
}

/**
 * A number as Fortran writes D19.12: sign, "0.", twelve significant digits, a two-digit exponent
 * (" 0.123456789012D+03", "-0.123456789012D-04"). The digits are the double's exact decimal value rounded to
 * nearest, ties to even, as C's printf and convbin round.
 */
export function formatD19(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`cannot write ${value} in a RINEX navigation record`);
  if (Math.abs(value) < 1e-99) return ' 0.000000000000D+00';
  const { digits, exponent } = twelveDigits(Math.abs(value));
  const power = exponent + 1;
  if (power > 99) throw new RangeError(`${value} does not fit a D19.12 field`);
  return `${value < 0 ? '-' : ' '}0.${digits}D${power < 0 ? '-' : '+'}${String(Math.abs(power)).padStart(2, '0')}`;
}

const two = (n: number) => String(n).padStart(2, '0');

function epochText(c: Calendar): string {
  return `${c.year} ${two(c.month)} ${two(c.day)} ${two(c.hour)} ${two(c.minute)} ${two(Math.floor(c.second))}`;
}

function line(values: readonly number[]): string {
  return `    ${values.map(formatD19).join('')}\n`;
}

/** Nominal URA in metres for a URA index (IS-GPS-200 20.3.3.3.1.3, as RINEX asks); BeiDou and NavIC use it too. */
export function uraMetres(index: number): number {
  if (index <= 6) return [2, 2.8, 4, 5.7, 8, 11.3, 16][index] as number;
  return 2 ** (index - 2);
}

/** Galileo SISA in metres for its index (Galileo OS SIS ICD 5.1.12); −1 for "no accuracy prediction available". */
export function sisaMetres(index: number): number {
  if (index <= 49) return index * 0.01;
  if (index <= 74) return 0.5 + (index - 50) * 0.02;
  if (index <= 99) return 1 + (index - 75) * 0.04;
  if (index <= 125) return 2 + (index - 100) * 0.16;
  return -1;
}

/**
 * GPS fit interval in hours from the fit flag and IODC (IS-GPS-200 table 20-XII): 4 h with the flag clear; with it
 * set, 6 h in normal operations and longer for the IODC ranges of extended operations.
 */
export function gpsFitHours(fitFlag: number, iodc: number): number {
  if (fitFlag === 0) return 4;
  if (iodc >= 240 && iodc <= 247) return 8;
  if ((iodc >= 248 && iodc <= 255) || iodc === 496) return 14;
  if ((iodc >= 497 && iodc <= 503) || (iodc >= 1021 && iodc <= 1023)) return 26;
  if (iodc >= 504 && iodc <= 510) return 50;
  if (iodc === 511 || (iodc >= 752 && iodc <= 756)) return 74;
  if (iodc >= 757 && iodc <= 763) return 98;
  if ((iodc >= 764 && iodc <= 767) || (iodc >= 1008 && iodc <= 1020)) return 122;
  if (iodc >= 768 && iodc <= 1007) return 146;
  return 6;
}

function keplerRecord(eph: KeplerEphemeris): string {
  const bds = eph.system === 'C';
  // BeiDou records are written in BDT: epoch, toe, week and transmission time.
  const lag = bds ? BDT_OFFSET_SECONDS : 0;
  const weekStart = gpsTime(eph.week + (bds ? BDT_WEEK_OFFSET : 0), 0);
  const inScale = (t: GpsTime) => addSeconds(t, -lag);
  const transmission = diffSeconds(inScale(eph.received), weekStart);
  const accuracy = eph.system === 'E' ? sisaMetres(eph.accuracyIndex) : uraMetres(eph.accuracyIndex);
  let orbit5Last = 0;
  let orbit6Last = 0;
  let orbit7Last = 0;
  switch (eph.system) {
    case 'G':
      orbit5Last = eph.l2pFlag;
      orbit6Last = eph.iodc;
      orbit7Last = gpsFitHours(eph.fitFlag, eph.iodc);
      break;
    case 'J':
      orbit5Last = eph.l2pFlag;
      orbit6Last = eph.iodc;
      orbit7Last = eph.fitFlag;
      break;
    case 'E':
      orbit6Last = eph.tgd2;
      break;
    case 'C':
      orbit6Last = eph.tgd2;
      orbit7Last = eph.iodc;
      break;
    case 'I':
      break;
  }
  return (
    `${eph.system}${two(eph.prn)} ${epochText(gpstToCalendar(inScale(eph.toc)))}` +
    `${[eph.af0, eph.af1, eph.af2].map(formatD19).join('')}\n` +
    line([eph.iode, eph.crs, eph.deltaN, eph.m0]) +
    line([eph.cuc, eph.e, eph.cus, eph.sqrtA]) +
    line([eph.toeSeconds, eph.cic, eph.omega0, eph.cis]) +
    line([eph.i0, eph.crc, eph.omega, eph.omegaDot]) +
    line([eph.idot, eph.codes, eph.week, orbit5Last]) +
    line([accuracy, eph.health, eph.tgd1, orbit6Last]) +
    line([transmission, orbit7Last])
  );
}

/** GPS time as UTC, in GPS-style week numbering (RINEX writes GLONASS epochs and frame times in UTC). */
function asUtc(t: GpsTime): GpsTime {
  return addSeconds(t, -leapSecondsAtGpst(t));
}

function glonassRecord(eph: GlonassEphemeris): string {
  const [x, y, z] = eph.position;
  const [vx, vy, vz] = eph.velocity;
  const [ax, ay, az] = eph.acceleration;
  return (
    `R${two(eph.prn)} ${epochText(gpstToCalendar(asUtc(eph.toe)))}` +
    `${[-eph.tauN, eph.gammaN, asUtc(eph.frameTime).tow].map(formatD19).join('')}\n` +
    line([x, vx, ax, eph.health]) +
    line([y, vy, ay, eph.frequencyChannel]) +
    line([z, vz, az, eph.age])
  );
}

/** One navigation record, newline-terminated. */
export function formatNavRecord(eph: Ephemeris): string {
  return eph.system === 'R' ? glonassRecord(eph) : keplerRecord(eph);
}

const SYSTEM_LABELS: Readonly<Record<NavSystem, string>> = {
  G: 'G: GPS',
  R: 'R: GLONASS',
  E: 'E: Galileo',
  C: 'C: BDS',
  J: 'J: QZSS',
  I: 'I: IRNSS',
};

export interface NavHeaderOptions {
  /** The constellations the file may hold; one gives that system's label, several "M: MIXED". */
  systems: readonly NavSystem[];
  program: string;
  runBy: string;
  /** File creation time for PGM / RUN BY / DATE. */
  created: Date;
  comments: readonly string[];
}

function headerLine(content: string, label: string): string {
  return `${content.padEnd(60).slice(0, 60)}${label}\n`;
}

/** Splits comment text into the 60-column COMMENT lines it needs. */
function commentLines(text: string): string[] {
  const lines: string[] = [];
  for (let rest = text; ; rest = rest.slice(60)) {
    lines.push(rest.slice(0, 60));
    if (rest.length <= 60) return lines;
  }
}

export function formatNavHeader(options: NavHeaderOptions): string {
  const system = options.systems.length === 1 ? SYSTEM_LABELS[options.systems[0] as NavSystem] : 'M: MIXED';
  const c = options.created;
  const date =
    `${c.getUTCFullYear()}${two(c.getUTCMonth() + 1)}${two(c.getUTCDate())} ` +
    `${two(c.getUTCHours())}${two(c.getUTCMinutes())}${two(c.getUTCSeconds())} UTC`;
  let out = headerLine(
    `${'3.04'.padStart(9)}${' '.repeat(11)}${'N: GNSS NAV DATA'.padEnd(20)}${system}`,
    'RINEX VERSION / TYPE',
  );
  out += headerLine(
    `${options.program.padEnd(20).slice(0, 20)}${options.runBy.padEnd(20).slice(0, 20)}${date}`,
    'PGM / RUN BY / DATE',
  );
  for (const comment of options.comments) for (const text of commentLines(comment)) out += headerLine(text, 'COMMENT');
  out += headerLine('', 'END OF HEADER');
  return out;
}
