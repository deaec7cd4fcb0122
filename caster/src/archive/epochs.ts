import {
  type GpsTime,
  getBitU,
  gpstToUtc,
  resolveBdsTow,
  resolveGlonassTod,
  resolveTow,
  utcToGpst,
} from '@portal/gnss';

/** Payload bit where every observation message's epoch time starts: after message number and station ID. */
const EPOCH_BIT = 24;
const PAYLOAD = 3;

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

/**
 * The observation epoch of one whole frame as a UTC instant (Unix ms), its time of week or day resolved nearest to
 * `near` (the frame's arrival, seconds later at most); null for a message that is not an observation. For the
 * archive's index only: BeiDou is taken in BDT, whatever a receiver's firmware does (the decoder knows better).
 */
export function observationEpoch(type: number, frame: Buffer, near: GpsTime): number | null {
  const scale = scaleOf(type);
  if (scale === null || frame.length < PAYLOAD + 7) return null;
  const payload = frame.subarray(PAYLOAD);
  if (scale === 'glonass') {
    // MSM: 3 bits of day of week, then 27 bits of milliseconds of the Moscow day; legacy 1009-1012: the 27 bits only.
    const msOfDay = getBitU(payload, type >= 1081 ? EPOCH_BIT + 3 : EPOCH_BIT, 27);
    return gpstToUtc(resolveGlonassTod(msOfDay / 1000, near));
  }
  const msOfWeek = getBitU(payload, EPOCH_BIT, 30);
  return gpstToUtc(scale === 'beidou' ? resolveBdsTow(msOfWeek / 1000, near) : resolveTow(msOfWeek / 1000, near));
}

/** The first and last observation epoch among the whole frames of `batch`, or null when none carried one. */
export function epochRange(batch: Buffer, arrival: number): { first: number; last: number } | null {
  const near = utcToGpst(arrival);
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (let i = 0; i + PAYLOAD + 2 <= batch.length; ) {
    const length = (((batch[i + 1] as number) & 0x03) << 8) | (batch[i + 2] as number);
    const end = i + PAYLOAD + length + 3;
    const type = ((batch[i + 3] as number) << 4) | ((batch[i + 4] as number) >> 4);
    const epoch = observationEpoch(type, batch.subarray(i, end), near);
    if (epoch !== null) {
      if (epoch < first) first = epoch;
      if (epoch > last) last = epoch;
    }
    i = end;
  }
  return first <= last ? { first, last } : null;
}
