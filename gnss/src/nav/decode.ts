/**
 * Broadcast ephemeris messages of RTCM 10403.3: 1019 GPS, 1020 GLONASS, 1041 NavIC/IRNSS, 1042 BeiDou, 1044 QZSS,
 * 1045 Galileo F/NAV, 1046 Galileo I/NAV. Field widths and scale factors are the standard's data fields (DF071–
 * DF137, DF252, DF286–DF317, DF429–DF457, DF488–DF515, DF516–DF543).
 *
 * The messages carry a week number cut to 10 (GPS, QZSS, NavIC), 12 (Galileo) or 13 bits (BeiDou) and times of
 * week or day only. They are completed from the time the caller passes: the receiver's time when the frame arrived
 * (the latest observation epoch, or the operator's approximate time before the first one). The wall clock is never
 * read, so an archive from before a week-number rollover converts the same today as in ten years.
 */
import { getBitS, getBitSignMagnitude, getBitU } from '../bits.ts';
import {
  addSeconds,
  BDT_OFFSET_SECONDS,
  BDT_WEEK_OFFSET,
  type GpsTime,
  GST_WEEK_OFFSET,
  gpsTime,
  resolveGlonassTod,
  resolveTow,
  resolveWeek,
} from '../time.ts';
import type { Ephemeris, GlonassEphemeris, KeplerEphemeris } from './types.ts';

/** The value of π the GPS, Galileo, BeiDou, QZSS and NavIC ICDs fix for converting semicircles to radians. */
// biome-ignore lint/suspicious/noApproximativeNumericConstant: the ICDs define π as exactly this value, not Math.PI
const ICD_PI = 3.1415926535898;

export const EPHEMERIS_MESSAGE_TYPES: ReadonlySet<number> = new Set([1019, 1020, 1041, 1042, 1044, 1045, 1046]);

/** A frame that is an ephemeris message but cannot be one: too short, or a satellite number out of range. */
export class EphemerisDecodeError extends Error {
  constructor(
    readonly messageType: number,
    message: string,
  ) {
    super(`RTCM ${messageType}: ${message}`);
    this.name = 'EphemerisDecodeError';
  }
}

/** One field of a message layout: its name (null for bits the decoder skips), width, scale and signedness. */
interface FieldSpec<K extends string = string> {
  readonly name: K | null;
  readonly bits: number;
  readonly scale: number;
  readonly kind: 'u' | 's' | 'sm';
}

const u = <K extends string>(name: K, bits: number, scale = 1): FieldSpec<K> => ({ name, bits, scale, kind: 'u' });
const s = <K extends string>(name: K, bits: number, scale: number): FieldSpec<K> => ({ name, bits, scale, kind: 's' });
/** Sign-magnitude (GLONASS). */
const sm = <K extends string>(name: K, bits: number, scale: number): FieldSpec<K> => ({
  name,
  bits,
  scale,
  kind: 'sm',
});
const skip = (bits: number): FieldSpec<never> => ({ name: null, bits, scale: 1, kind: 'u' });
/** Semicircles (or semicircles per second) with the given power-of-two scale, as radians. */
const semicircles = (exponent: number) => 2 ** exponent * ICD_PI;

type Layout = readonly FieldSpec[];
type Values<L extends Layout> = Record<NonNullable<L[number]['name']>, number>;

/** Reads a layout's fields in order, from just after the 12-bit message number. */
function read<L extends Layout>(payload: Uint8Array, layout: L): Values<L> {
  const values: Record<string, number> = {};
  let pos = 12;
  for (const field of layout) {
    if (field.name !== null) {
      const raw =
        field.kind === 'u'
          ? getBitU(payload, pos, field.bits)
          : field.kind === 's'
            ? getBitS(payload, pos, field.bits)
            : getBitSignMagnitude(payload, pos, field.bits);
      values[field.name] = raw * field.scale;
    }
    pos += field.bits;
  }
  return values as Values<L>;
}

/** Payload bits each message needs, header included, reserved bits at the end excluded. */
const PAYLOAD_BITS: Readonly<Record<number, number>> = {
  1019: 488,
  1020: 353,
  1041: 478,
  1042: 511,
  1044: 485,
  1045: 489,
  1046: 502,
};

/**
 * Decodes one ephemeris frame (a whole frame as the framer yields it, or its payload with `isPayload`). Returns
 * null for a frame of any other message type. `received` is the receiver's time when the frame arrived, as GPS
 * time: it fixes the week (within half a week, across rollovers) and becomes RINEX's transmission-time field,
 * since RTCM carries none.
 */
export function decodeEphemeris(frame: Uint8Array, received: GpsTime, isPayload = false): Ephemeris | null {
  const payload = isPayload ? frame : frame.subarray(3, frame.length - 3);
  if (payload.length < 2) return null;
  const type = getBitU(payload, 0, 12);
  const needed = PAYLOAD_BITS[type];
  if (needed === undefined) return null;
  if (payload.length * 8 < needed) {
    throw new EphemerisDecodeError(type, `${payload.length} bytes, the message needs ${Math.ceil(needed / 8)}`);
  }
  switch (type) {
    case 1019:
      return kepler('G', 1019, GPS_WEEK, 32, read(payload, GPS_1019), received);
    case 1020:
      return glonass(read(payload, GLONASS_1020), received);
    case 1041:
      // The NavIC week counts from 1999-08-22 (GPS week 1024) in 10 bits, so it equals the GPS week modulo 1024.
      return kepler('I', 1041, GPS_WEEK, 63, read(payload, NAVIC_1041), received);
    case 1042:
      return kepler('C', 1042, BDT_WEEK, 63, read(payload, BEIDOU_1042), received);
    case 1044:
      // QZSS does not transmit L2 P; RINEX 3.04 has the flag set to 1.
      return kepler('J', 1044, GPS_WEEK, 15, { ...read(payload, QZSS_1044), l2pFlag: 1 }, received);
    case 1045:
      return galileoFnav(read(payload, GALILEO_1045), received);
    default:
      return galileoInav(read(payload, GALILEO_1046), received);
  }
}

function checkPrn(type: number, prn: number, max: number): void {
  if (prn < 1 || prn > max) throw new EphemerisDecodeError(type, `satellite ID ${prn} is not 1–${max}`);
}

interface WeekRule {
  /** Bits of the broadcast week number. */
  bits: number;
  /** The scale's week 0 in GPS weeks. */
  offset: number;
  /** Seconds the scale runs behind GPS time (BeiDou: 14). */
  lag: number;
  /** The GPS week RINEX counts the record's week from: BDT's week 0 for BeiDou, GPS's for the others. */
  rinexWeekZero: number;
}

const GPS_WEEK: WeekRule = { bits: 10, offset: 0, lag: 0, rinexWeekZero: 0 };
const GST_WEEK: WeekRule = { bits: 12, offset: GST_WEEK_OFFSET, lag: 0, rinexWeekZero: 0 };
const BDT_WEEK: WeekRule = {
  bits: 13,
  offset: BDT_WEEK_OFFSET,
  lag: BDT_OFFSET_SECONDS,
  rinexWeekZero: BDT_WEEK_OFFSET,
};

/**
 * toe and toc as GPS time. The broadcast week is the week of transmission, which near a week's end differs from
 * toe's; toe goes into the week that puts it nearest the receiver's time, unless that time is so far off that
 * the broadcast week is the better guide. toc is taken nearest toe.
 */
function ephemerisTimes(
  rule: WeekRule,
  broadcastWeek: number,
  toeSeconds: number,
  tocSeconds: number,
  received: GpsTime,
): { week: number; toe: GpsTime; toc: GpsTime } {
  const ref = addSeconds(received, -rule.lag);
  const fullWeek = resolveWeek(broadcastWeek, rule.bits, ref, rule.offset);
  const nearest = resolveTow(toeSeconds, ref);
  const toeWeek = Math.abs(nearest.week - fullWeek) <= 1 ? nearest.week : fullWeek;
  const toeScale = gpsTime(toeWeek, toeSeconds);
  const tocScale = resolveTow(tocSeconds, toeScale);
  return {
    week: toeWeek - rule.rinexWeekZero,
    toe: addSeconds(toeScale, rule.lag),
    toc: addSeconds(tocScale, rule.lag),
  };
}

type KeplerField =
  | 'prn'
  | 'week'
  | 'tocSeconds'
  | 'toeSeconds'
  | 'af0'
  | 'af1'
  | 'af2'
  | 'iode'
  | 'crs'
  | 'deltaN'
  | 'm0'
  | 'cuc'
  | 'e'
  | 'cus'
  | 'sqrtA'
  | 'cic'
  | 'omega0'
  | 'cis'
  | 'i0'
  | 'crc'
  | 'omega'
  | 'omegaDot'
  | 'idot'
  | 'accuracyIndex'
  | 'health'
  | 'tgd1';
/** What a message without these fields writes: IODC is IODE again, the rest 0. */
type KeplerOptional = 'iodc' | 'tgd2' | 'codes' | 'l2pFlag' | 'fitFlag';
type KeplerValues = Record<KeplerField, number> & Partial<Record<KeplerOptional, number>>;

function kepler(
  system: KeplerEphemeris['system'],
  messageType: KeplerEphemeris['messageType'],
  rule: WeekRule,
  maxPrn: number,
  v: KeplerValues,
  received: GpsTime,
): KeplerEphemeris {
  checkPrn(messageType, v.prn, maxPrn);
  return {
    system,
    prn: v.prn,
    messageType,
    ...ephemerisTimes(rule, v.week, v.toeSeconds, v.tocSeconds, received),
    toeSeconds: v.toeSeconds,
    received,
    af0: v.af0,
    af1: v.af1,
    af2: v.af2,
    iode: v.iode,
    iodc: v.iodc ?? v.iode,
    crs: v.crs,
    deltaN: v.deltaN,
    m0: v.m0,
    cuc: v.cuc,
    e: v.e,
    cus: v.cus,
    sqrtA: v.sqrtA,
    cic: v.cic,
    omega0: v.omega0,
    cis: v.cis,
    i0: v.i0,
    crc: v.crc,
    omega: v.omega,
    omegaDot: v.omegaDot,
    idot: v.idot,
    accuracyIndex: v.accuracyIndex,
    health: v.health,
    tgd1: v.tgd1,
    tgd2: v.tgd2 ?? 0,
    codes: v.codes ?? 0,
    l2pFlag: v.l2pFlag ?? 0,
    fitFlag: v.fitFlag ?? 0,
  };
}

const GPS_1019 = [
  u('prn', 6),
  u('week', 10),
  u('accuracyIndex', 4),
  u('codes', 2),
  s('idot', 14, semicircles(-43)),
  u('iode', 8),
  u('tocSeconds', 16, 16),
  s('af2', 8, 2 ** -55),
  s('af1', 16, 2 ** -43),
  s('af0', 22, 2 ** -31),
  u('iodc', 10),
  s('crs', 16, 2 ** -5),
  s('deltaN', 16, semicircles(-43)),
  s('m0', 32, semicircles(-31)),
  s('cuc', 16, 2 ** -29),
  u('e', 32, 2 ** -33),
  s('cus', 16, 2 ** -29),
  u('sqrtA', 32, 2 ** -19),
  u('toeSeconds', 16, 16),
  s('cic', 16, 2 ** -29),
  s('omega0', 32, semicircles(-31)),
  s('cis', 16, 2 ** -29),
  s('i0', 32, semicircles(-31)),
  s('crc', 16, 2 ** -5),
  s('omega', 32, semicircles(-31)),
  s('omegaDot', 24, semicircles(-43)),
  s('tgd1', 8, 2 ** -31),
  u('health', 6),
  u('l2pFlag', 1),
  u('fitFlag', 1),
] as const;

const QZSS_1044 = [
  u('prn', 4),
  u('tocSeconds', 16, 16),
  s('af2', 8, 2 ** -55),
  s('af1', 16, 2 ** -43),
  s('af0', 22, 2 ** -31),
  u('iode', 8),
  s('crs', 16, 2 ** -5),
  s('deltaN', 16, semicircles(-43)),
  s('m0', 32, semicircles(-31)),
  s('cuc', 16, 2 ** -29),
  u('e', 32, 2 ** -33),
  s('cus', 16, 2 ** -29),
  u('sqrtA', 32, 2 ** -19),
  u('toeSeconds', 16, 16),
  s('cic', 16, 2 ** -29),
  s('omega0', 32, semicircles(-31)),
  s('cis', 16, 2 ** -29),
  s('i0', 32, semicircles(-31)),
  s('crc', 16, 2 ** -5),
  s('omega', 32, semicircles(-31)),
  s('omegaDot', 24, semicircles(-43)),
  s('idot', 14, semicircles(-43)),
  u('codes', 2),
  u('week', 10),
  u('accuracyIndex', 4),
  u('health', 6),
  s('tgd1', 8, 2 ** -31),
  u('iodc', 10),
  u('fitFlag', 1),
] as const;

const NAVIC_1041 = [
  u('prn', 6),
  u('week', 10),
  s('af0', 22, 2 ** -31),
  s('af1', 16, 2 ** -43),
  s('af2', 8, 2 ** -55),
  u('accuracyIndex', 4),
  u('tocSeconds', 16, 16),
  s('tgd1', 8, 2 ** -31),
  s('deltaN', 22, semicircles(-41)),
  u('iode', 8),
  skip(10),
  u('health', 2),
  s('cuc', 15, 2 ** -28),
  s('cus', 15, 2 ** -28),
  s('cic', 15, 2 ** -28),
  s('cis', 15, 2 ** -28),
  s('crc', 15, 2 ** -4),
  s('crs', 15, 2 ** -4),
  s('idot', 14, semicircles(-43)),
  s('m0', 32, semicircles(-31)),
  u('toeSeconds', 16, 16),
  u('e', 32, 2 ** -33),
  u('sqrtA', 32, 2 ** -19),
  s('omega0', 32, semicircles(-31)),
  s('omega', 32, semicircles(-31)),
  s('omegaDot', 22, semicircles(-41)),
  s('i0', 32, semicircles(-31)),
] as const;

const BEIDOU_1042 = [
  u('prn', 6),
  u('week', 13),
  u('accuracyIndex', 4),
  s('idot', 14, semicircles(-43)),
  u('iode', 5),
  u('tocSeconds', 17, 8),
  s('af2', 11, 2 ** -66),
  s('af1', 22, 2 ** -50),
  s('af0', 24, 2 ** -33),
  u('iodc', 5),
  s('crs', 18, 2 ** -6),
  s('deltaN', 16, semicircles(-43)),
  s('m0', 32, semicircles(-31)),
  s('cuc', 18, 2 ** -31),
  u('e', 32, 2 ** -33),
  s('cus', 18, 2 ** -31),
  u('sqrtA', 32, 2 ** -19),
  u('toeSeconds', 17, 8),
  s('cic', 18, 2 ** -31),
  s('omega0', 32, semicircles(-31)),
  s('cis', 18, 2 ** -31),
  s('i0', 32, semicircles(-31)),
  s('crc', 18, 2 ** -6),
  s('omega', 32, semicircles(-31)),
  s('omegaDot', 24, semicircles(-43)),
  // TGD1 and TGD2 come in units of 0.1 ns.
  s('tgd1', 10, 1e-10),
  s('tgd2', 10, 1e-10),
  u('health', 1),
] as const;

/** The fields 1045 (F/NAV) and 1046 (I/NAV) share, up to BGD E5a/E1. */
const GALILEO_COMMON = [
  u('prn', 6),
  u('week', 12),
  u('iode', 10),
  u('accuracyIndex', 8),
  s('idot', 14, semicircles(-43)),
  u('tocSeconds', 14, 60),
  s('af2', 6, 2 ** -59),
  s('af1', 21, 2 ** -46),
  s('af0', 31, 2 ** -34),
  s('crs', 16, 2 ** -5),
  s('deltaN', 16, semicircles(-43)),
  s('m0', 32, semicircles(-31)),
  s('cuc', 16, 2 ** -29),
  u('e', 32, 2 ** -33),
  s('cus', 16, 2 ** -29),
  u('sqrtA', 32, 2 ** -19),
  u('toeSeconds', 14, 60),
  s('cic', 16, 2 ** -29),
  s('omega0', 32, semicircles(-31)),
  s('cis', 16, 2 ** -29),
  s('i0', 32, semicircles(-31)),
  s('crc', 16, 2 ** -5),
  s('omega', 32, semicircles(-31)),
  s('omegaDot', 24, semicircles(-43)),
  s('tgd1', 10, 2 ** -32),
] as const;

const GALILEO_1045 = [...GALILEO_COMMON, u('e5aHealth', 2), u('e5aValidity', 1)] as const;

function galileoFnav(v: Values<typeof GALILEO_1045>, received: GpsTime): KeplerEphemeris {
  return kepler(
    'E',
    1045,
    GST_WEEK,
    63,
    {
      ...v,
      health: (v.e5aHealth << 4) | (v.e5aValidity << 3),
      // Data sources: F/NAV E5a-I (bit 1); clock for E5a,E1 (bit 8).
      codes: (1 << 1) | (1 << 8),
    },
    received,
  );
}

const GALILEO_1046 = [
  ...GALILEO_COMMON,
  s('tgd2', 10, 2 ** -32),
  u('e5bHealth', 2),
  u('e5bValidity', 1),
  u('e1Health', 2),
  u('e1Validity', 1),
] as const;

function galileoInav(v: Values<typeof GALILEO_1046>, received: GpsTime): KeplerEphemeris {
  return kepler(
    'E',
    1046,
    GST_WEEK,
    63,
    {
      ...v,
      health: (v.e5bHealth << 7) | (v.e5bValidity << 6) | (v.e1Health << 1) | v.e1Validity,
      // Data sources: I/NAV E1-B (bit 0) and E5b-I (bit 2), which 1046 does not tell apart; clock for E5b,E1 (bit 9).
      codes: (1 << 0) | (1 << 2) | (1 << 9),
    },
    received,
  );
}

const GLONASS_1020 = [
  u('prn', 6),
  u('frequencyChannel', 5),
  // Almanac health and its availability, P1.
  skip(1 + 1 + 2),
  u('tkHours', 5),
  u('tkMinutes', 6),
  u('tkSeconds', 1, 30),
  u('health', 1),
  skip(1),
  u('tb', 7, 900),
  sm('xDot', 24, 2 ** -20),
  sm('x', 27, 2 ** -11),
  sm('xAcc', 5, 2 ** -30),
  sm('yDot', 24, 2 ** -20),
  sm('y', 27, 2 ** -11),
  sm('yAcc', 5, 2 ** -30),
  sm('zDot', 24, 2 ** -20),
  sm('z', 27, 2 ** -11),
  sm('zAcc', 5, 2 ** -30),
  skip(1),
  sm('gammaN', 11, 2 ** -40),
  // P, ln.
  skip(2 + 1),
  sm('tauN', 22, 2 ** -30),
  skip(5),
  u('age', 5),
] as const;

function glonass(v: Values<typeof GLONASS_1020>, received: GpsTime): GlonassEphemeris {
  checkPrn(1020, v.prn, 63);
  // tk and tb are Moscow times of day; each is taken on the day that puts it nearest the receiver's time.
  return {
    system: 'R',
    prn: v.prn,
    messageType: 1020,
    frequencyChannel: v.frequencyChannel - 7,
    toe: resolveGlonassTod(v.tb, received),
    frameTime: resolveGlonassTod(v.tkHours * 3600 + v.tkMinutes * 60 + v.tkSeconds, received),
    received,
    position: [v.x, v.y, v.z],
    velocity: [v.xDot, v.yDot, v.zDot],
    acceleration: [v.xAcc, v.yAcc, v.zAcc],
    tauN: v.tauN,
    gammaN: v.gammaN,
    health: v.health,
    age: v.age,
  };
}
