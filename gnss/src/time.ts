/**
 * GNSS time scales. Everything inside the decoder is GPS time (GPST) as a full week number and seconds of week;
 * other scales (UTC, BeiDou time, GLONASS Moscow time, Galileo's week count) are converted at the edges.
 *
 * RTCM 3 messages carry only a time of week (or of day for GLONASS) and at most a truncated week number, so the full
 * time is resolved against an approximate time: the one given on the command line (like convbin's -tr) or the
 * archive's hour, and then the last decoded epoch. The wall clock is never used.
 */

export const SECONDS_PER_WEEK = 604_800;
const SECONDS_PER_DAY = 86_400;
const HALF_WEEK = SECONDS_PER_WEEK / 2;
const HALF_DAY = SECONDS_PER_DAY / 2;
/** 1980-01-06T00:00:00 in Unix milliseconds: GPS week 0 starts here. */
const GPS_EPOCH_UNIX_MS = Date.UTC(1980, 0, 6);
/** BeiDou time started 2006-01-01 00:00:00 UTC, 14 leap seconds after GPS time: BDT = GPST − 14 s. */
export const BDT_OFFSET_SECONDS = 14;
/** BDT week 0 starts at GPS week 1356. */
export const BDT_WEEK_OFFSET = 1356;
/** Galileo system time's week 0 starts at GPS week 1024 (1999-08-22); its seconds equal GPST's. */
export const GST_WEEK_OFFSET = 1024;
/** GLONASS time is UTC(SU) + 3 h. */
const MOSCOW_OFFSET_SECONDS = 3 * 3600;

/** A GPS time: full week number since 1980-01-06 and seconds of that week, 0 ≤ tow < 604800. */
export interface GpsTime {
  readonly week: number;
  readonly tow: number;
}

/** Broken-down calendar time; `second` may carry a fraction. */
export interface Calendar {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/**
 * GPS − UTC in seconds, from the UTC instant each value took effect. A new leap second needs one more line here;
 * none has been announced since 2017.
 */
const LEAP_SECONDS: ReadonlyArray<readonly [unixSeconds: number, leap: number]> = [
  [Date.UTC(2017, 0, 1) / 1000, 18],
  [Date.UTC(2015, 6, 1) / 1000, 17],
  [Date.UTC(2012, 6, 1) / 1000, 16],
  [Date.UTC(2009, 0, 1) / 1000, 15],
  [Date.UTC(2006, 0, 1) / 1000, 14],
  [Date.UTC(1999, 0, 1) / 1000, 13],
  [Date.UTC(1997, 6, 1) / 1000, 12],
  [Date.UTC(1996, 0, 1) / 1000, 11],
  [Date.UTC(1994, 6, 1) / 1000, 10],
  [Date.UTC(1993, 6, 1) / 1000, 9],
  [Date.UTC(1992, 6, 1) / 1000, 8],
  [Date.UTC(1991, 0, 1) / 1000, 7],
  [Date.UTC(1990, 0, 1) / 1000, 6],
  [Date.UTC(1988, 0, 1) / 1000, 5],
  [Date.UTC(1985, 6, 1) / 1000, 4],
  [Date.UTC(1983, 6, 1) / 1000, 3],
  [Date.UTC(1982, 6, 1) / 1000, 2],
  [Date.UTC(1981, 6, 1) / 1000, 1],
];

/** Builds a GPS time, carrying whole weeks out of (or into) the seconds so that 0 ≤ tow < 604800. */
export function gpsTime(week: number, tow: number): GpsTime {
  const carry = Math.floor(tow / SECONDS_PER_WEEK);
  return { week: week + carry, tow: tow - carry * SECONDS_PER_WEEK };
}

export function addSeconds(t: GpsTime, seconds: number): GpsTime {
  return gpsTime(t.week, t.tow + seconds);
}

/** a − b in seconds; exact to well below a nanosecond because weeks and seconds are subtracted apart. */
export function diffSeconds(a: GpsTime, b: GpsTime): number {
  return (a.week - b.week) * SECONDS_PER_WEEK + (a.tow - b.tow);
}

export function compareTime(a: GpsTime, b: GpsTime): number {
  return a.week !== b.week ? a.week - b.week : a.tow - b.tow;
}

/** Seconds since the GPS epoch (to about 0.2 µs today; use diffSeconds for differences). */
export function gpsSeconds(t: GpsTime): number {
  return t.week * SECONDS_PER_WEEK + t.tow;
}

/** Calendar date and time of a GPS time, in GPST itself (RINEX observation epochs are written this way). */
export function gpstToCalendar(t: GpsTime): Calendar {
  const whole = Math.floor(t.tow);
  const date = new Date(GPS_EPOCH_UNIX_MS + (t.week * SECONDS_PER_WEEK + whole) * 1000);
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
    second: date.getUTCSeconds() + (t.tow - whole),
  };
}

/** The GPS time whose GPST calendar reading is `c`. */
export function calendarToGpst(c: Calendar): GpsTime {
  const whole = Math.floor(c.second);
  const unixMs = Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, whole);
  const seconds = (unixMs - GPS_EPOCH_UNIX_MS) / 1000;
  return gpsTime(Math.floor(seconds / SECONDS_PER_WEEK), (seconds % SECONDS_PER_WEEK) + (c.second - whole));
}

/** GPS − UTC at a UTC instant given in Unix seconds; 0 before 1981-07-01. */
export function leapSecondsAtUtc(unixSeconds: number): number {
  for (const [from, leap] of LEAP_SECONDS) if (unixSeconds >= from) return leap;
  return 0;
}

/** GPS − UTC at a GPS time. */
export function leapSecondsAtGpst(t: GpsTime): number {
  const asIfUtc = GPS_EPOCH_UNIX_MS / 1000 + gpsSeconds(t);
  for (const [from, leap] of LEAP_SECONDS) if (asIfUtc - leap >= from) return leap;
  return 0;
}

/** A UTC instant (Unix milliseconds, e.g. Date.getTime()) as GPS time. */
export function utcToGpst(unixMs: number): GpsTime {
  const whole = Math.floor(unixMs / 1000);
  const seconds = whole - GPS_EPOCH_UNIX_MS / 1000 + leapSecondsAtUtc(whole);
  const week = Math.floor(seconds / SECONDS_PER_WEEK);
  // Whole seconds and the fraction are kept apart so a millisecond survives the week arithmetic exactly.
  return gpsTime(week, seconds - week * SECONDS_PER_WEEK + (unixMs - whole * 1000) / 1000);
}

/** A GPS time as a UTC instant in Unix milliseconds. */
export function gpstToUtc(t: GpsTime): number {
  return GPS_EPOCH_UNIX_MS + (gpsSeconds(t) - leapSecondsAtGpst(t)) * 1000;
}

/**
 * The full GPS time of a time of week, taken in the week that puts it nearest to `ref` (within half a week). This is
 * how a decoder crosses the week rollover: `ref` is the approximate time at first and the last epoch afterwards.
 */
export function resolveTow(tow: number, ref: GpsTime): GpsTime {
  let t = tow;
  const d = tow - ref.tow;
  if (d < -HALF_WEEK) t += SECONDS_PER_WEEK;
  else if (d > HALF_WEEK) t -= SECONDS_PER_WEEK;
  return gpsTime(ref.week, t);
}

/**
 * The full GPS time of a BeiDou time of week (BDT), resolved near `ref` (GPST). Receivers with firmware that
 * already tags BeiDou in GPST need `bdtIsGpst` (the decoder's option), which skips the 14 s.
 */
export function resolveBdsTow(bdsTow: number, ref: GpsTime, bdtIsGpst = false): GpsTime {
  return resolveTow(bdsTow + (bdtIsGpst ? 0 : BDT_OFFSET_SECONDS), ref);
}

/**
 * The full GPS time of a GLONASS time of day (Moscow time, seconds since its midnight), taken on the Moscow day
 * that puts it nearest to `ref` (within half a day).
 */
export function resolveGlonassTod(tod: number, ref: GpsTime): GpsTime {
  // Week and seconds of week on a scale without leap seconds keep sub-nanosecond precision through the conversion.
  const moscowRef = gpsTime(ref.week, ref.tow - leapSecondsAtGpst(ref) + MOSCOW_OFFSET_SECONDS);
  const dayStart = Math.floor(moscowRef.tow / SECONDS_PER_DAY) * SECONDS_PER_DAY;
  let t = tod;
  const d = tod - (moscowRef.tow - dayStart);
  if (d < -HALF_DAY) t += SECONDS_PER_DAY;
  else if (d > HALF_DAY) t -= SECONDS_PER_DAY;
  const utc = gpsTime(moscowRef.week, dayStart + t - MOSCOW_OFFSET_SECONDS);
  return addSeconds(utc, leapSecondsAtUtc(GPS_EPOCH_UNIX_MS / 1000 + gpsSeconds(utc)));
}

/**
 * A full week number from one truncated to `bits` bits (GPS 1019: 10 bits; Galileo 1045/1046: 12 bits of GST
 * week; BeiDou 1042: 13 bits of BDT week), choosing the value nearest the reference week. `offset` is the scale's
 * week 0 in GPS weeks (GST_WEEK_OFFSET, BDT_WEEK_OFFSET); the result is a GPS week.
 */
export function resolveWeek(truncated: number, bits: number, ref: GpsTime, offset = 0): number {
  const modulus = 2 ** bits;
  const refInScale = ref.week - offset;
  const week = truncated + Math.floor((refInScale - truncated + modulus / 2) / modulus) * modulus;
  return week + offset;
}

/**
 * Parses an approximate time for week resolution. ISO 8601 with a zone (2022-12-13T01:09:00Z) is a UTC instant;
 * convbin's "2022/12/13 01:09:00" form is read as GPST like convbin's -tr. Returns null when it is neither.
 */
export function parseApproxTime(text: string): GpsTime | null {
  const convbin = /^(\d{4})\/(\d{1,2})\/(\d{1,2})[ T](\d{1,2}):(\d{1,2}):(\d{1,2}(?:\.\d+)?)$/.exec(text.trim());
  if (convbin) {
    const [, y, mo, d, h, mi, s] = convbin.map(Number) as number[];
    return calendarToGpst({
      year: y as number,
      month: mo as number,
      day: d as number,
      hour: h as number,
      minute: mi as number,
      second: s as number,
    });
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(text.trim())) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : utcToGpst(ms);
}
