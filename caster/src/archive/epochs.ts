import { getBitU, utcToGpst } from '@portal/gnss';

/** Payload bit where every observation message's epoch time starts: after message number and station ID. */
const EPOCH_BIT = 24;
const PAYLOAD = 3;
const GPS_EPOCH_MS = Date.UTC(1980, 0, 6);
const WEEK_MS = 604_800_000;
const DAY_MS = 86_400_000;
/** BeiDou time is 14 s behind GPS time; GLONASS time is UTC(SU) + 3 h. */
const BDT_MS = 14_000;
const MOSCOW_MS = 3 * 3_600_000;

type Scale = 'gps' | 'glonass' | 'beidou';

/** The time scale of an observation message's epoch field; null for messages that carry no observation epoch. */
function scaleOf(type: number): Scale | null {
  if ((type >= 1001 && type <= 1004) || (type >= 1071 && type <= 1077)) return 'gps';
  if ((type >= 1009 && type <= 1012) || (type >= 1081 && type <= 1087)) return 'glonass';
  if (type >= 1121 && type <= 1127) return 'beidou';
  // Galileo (GST), SBAS, QZSS and NavIC MSM count milliseconds of the week as GPS does.
  if ((type >= 1091 && type <= 1117) || (type >= 1131 && type <= 1137)) return 'gps';
  return null;
}

/** `t` moved by whole periods to lie within half a period of `near`. */
function nearest(t: number, near: number, period: number): number {
  return t + Math.round((near - t) / period) * period;
}

/** First and last observation epoch of a batch (UTC, Unix ms), written by epochRange. */
export interface EpochRange {
  first: number;
  last: number;
  /**
   * Minutes of the batch's UTC hour holding an epoch, as bits: bit m of `minutesLow` is minute m (0–29), bit m of
   * `minutesHigh` is minute 30 + m. Epochs outside the hour set none.
   */
  minutesLow: number;
  minutesHigh: number;
}

/** An EpochRange's minute bits as the minutes they stand for, ascending. */
export function epochMinutes(range: Pick<EpochRange, 'minutesLow' | 'minutesHigh'>): number[] {
  const out: number[] = [];
  for (let m = 0; m < 30; m++) if (range.minutesLow & (1 << m)) out.push(m);
  for (let m = 0; m < 30; m++) if (range.minutesHigh & (1 << m)) out.push(30 + m);
  return out;
}

/**
 * The first and last observation epoch among the whole frames of `batch` as UTC instants, each time of week or day
 * resolved nearest to `arrival` (the frames arrived seconds after their epochs at most); false when no frame carried
 * one. For the archive's index only: BeiDou is taken in BDT whatever a receiver's firmware does (the decoder knows
 * better), and GPS − UTC is the one at arrival. Walks the frames without allocating, as it runs for every flush.
 * The minutes of `hour` (the UTC hour the batch is filed under, Unix ms) that hold an epoch go to `out`'s bits.
 */
export function epochRange(batch: Buffer, arrival: number, hour: number, out: EpochRange): boolean {
  const gps = utcToGpst(arrival);
  const gpsMs = (gps.week * 604_800 + gps.tow) * 1000;
  const leapMs = Math.round(gpsMs - (arrival - GPS_EPOCH_MS));
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  out.minutesLow = 0;
  out.minutesHigh = 0;
  for (let i = 0; i + PAYLOAD + 7 <= batch.length; ) {
    const length = (((batch[i + 1] as number) & 0x03) << 8) | (batch[i + 2] as number);
    const type = ((batch[i + 3] as number) << 4) | ((batch[i + 4] as number) >> 4);
    const scale = scaleOf(type);
    if (scale !== null && length >= 7) {
      const payload = i + PAYLOAD;
      let epoch: number;
      if (scale === 'glonass') {
        // MSM: 3 bits of day of week, then 27 bits of milliseconds of the Moscow day; 1009-1012: the 27 bits only.
        const msOfDay = getBitU(batch, payload * 8 + (type >= 1081 ? EPOCH_BIT + 3 : EPOCH_BIT), 27);
        epoch = nearest(msOfDay - MOSCOW_MS, arrival - Math.floor(arrival / DAY_MS) * DAY_MS, DAY_MS);
        epoch += Math.floor(arrival / DAY_MS) * DAY_MS;
      } else {
        const msOfWeek = getBitU(batch, payload * 8 + EPOCH_BIT, 30) + (scale === 'beidou' ? BDT_MS : 0);
        const weekStart = Math.floor(gpsMs / WEEK_MS) * WEEK_MS;
        epoch = GPS_EPOCH_MS + nearest(weekStart + msOfWeek, gpsMs, WEEK_MS) - leapMs;
      }
      if (epoch < first) first = epoch;
      if (epoch > last) last = epoch;
      const minute = Math.floor((epoch - hour) / 60_000);
      if (minute >= 0 && minute < 30) out.minutesLow |= 1 << minute;
      else if (minute >= 30 && minute < 60) out.minutesHigh |= 1 << (minute - 30);
    }
    i += PAYLOAD + length + 3;
  }
  if (first > last) return false;
  out.first = first;
  out.last = last;
  return true;
}
