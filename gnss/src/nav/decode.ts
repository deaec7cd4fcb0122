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

/** Reads consecutive fields of a payload; positions start after the 12-bit message number. */
class Fields {
  private pos = 12;

  constructor(private readonly payload: Uint8Array) {}

  u(len: number): number {
    const value = getBitU(this.payload, this.pos, len);
    this.pos += len;
    return value;
  }

  s(len: number): number {
    const value = getBitS(this.payload, this.pos, len);
    this.pos += len;
    return value;
  }

  /** Sign-magnitude (GLONASS). */
  sm(len: number): number {
    const value = getBitSignMagnitude(this.payload, this.pos, len);
    this.pos += len;
    return value;
  }

  skip(len: number): void {
    this.pos += len;
  }
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
  const f = new Fields(payload);
  switch (type) {
    case 1019:
      return decodeGps(f, received);
    case 1020:
      return decodeGlonass(f, received);
    case 1041:
      return decodeNavic(f, received);
    case 1042:
      return decodeBeidou(f, received);
    case 1044:
      return decodeQzss(f, received);
    default:
      return decodeGalileo(f, received, type as 1045 | 1046);
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

function decodeGps(f: Fields, received: GpsTime): KeplerEphemeris {
  const prn = f.u(6);
  checkPrn(1019, prn, 32);
  const broadcastWeek = f.u(10);
  const accuracyIndex = f.u(4);
  const codes = f.u(2);
  const idot = f.s(14) * 2 ** -43 * ICD_PI;
  const iode = f.u(8);
  const tocSeconds = f.u(16) * 16;
  const af2 = f.s(8) * 2 ** -55;
  const af1 = f.s(16) * 2 ** -43;
  const af0 = f.s(22) * 2 ** -31;
  const iodc = f.u(10);
  const crs = f.s(16) * 2 ** -5;
  const deltaN = f.s(16) * 2 ** -43 * ICD_PI;
  const m0 = f.s(32) * 2 ** -31 * ICD_PI;
  const cuc = f.s(16) * 2 ** -29;
  const e = f.u(32) * 2 ** -33;
  const cus = f.s(16) * 2 ** -29;
  const sqrtA = f.u(32) * 2 ** -19;
  const toeSeconds = f.u(16) * 16;
  const cic = f.s(16) * 2 ** -29;
  const omega0 = f.s(32) * 2 ** -31 * ICD_PI;
  const cis = f.s(16) * 2 ** -29;
  const i0 = f.s(32) * 2 ** -31 * ICD_PI;
  const crc = f.s(16) * 2 ** -5;
  const omega = f.s(32) * 2 ** -31 * ICD_PI;
  const omegaDot = f.s(24) * 2 ** -43 * ICD_PI;
  const tgd1 = f.s(8) * 2 ** -31;
  const health = f.u(6);
  const l2pFlag = f.u(1);
  const fitFlag = f.u(1);
  return {
    system: 'G',
    prn,
    messageType: 1019,
    ...ephemerisTimes(GPS_WEEK, broadcastWeek, toeSeconds, tocSeconds, received),
    toeSeconds,
    received,
    af0,
    af1,
    af2,
    iode,
    iodc,
    crs,
    deltaN,
    m0,
    cuc,
    e,
    cus,
    sqrtA,
    cic,
    omega0,
    cis,
    i0,
    crc,
    omega,
    omegaDot,
    idot,
    accuracyIndex,
    health,
    tgd1,
    tgd2: 0,
    codes,
    l2pFlag,
    fitFlag,
  };
}

function decodeQzss(f: Fields, received: GpsTime): KeplerEphemeris {
  const prn = f.u(4);
  checkPrn(1044, prn, 15);
  const tocSeconds = f.u(16) * 16;
  const af2 = f.s(8) * 2 ** -55;
  const af1 = f.s(16) * 2 ** -43;
  const af0 = f.s(22) * 2 ** -31;
  const iode = f.u(8);
  const crs = f.s(16) * 2 ** -5;
  const deltaN = f.s(16) * 2 ** -43 * ICD_PI;
  const m0 = f.s(32) * 2 ** -31 * ICD_PI;
  const cuc = f.s(16) * 2 ** -29;
  const e = f.u(32) * 2 ** -33;
  const cus = f.s(16) * 2 ** -29;
  const sqrtA = f.u(32) * 2 ** -19;
  const toeSeconds = f.u(16) * 16;
  const cic = f.s(16) * 2 ** -29;
  const omega0 = f.s(32) * 2 ** -31 * ICD_PI;
  const cis = f.s(16) * 2 ** -29;
  const i0 = f.s(32) * 2 ** -31 * ICD_PI;
  const crc = f.s(16) * 2 ** -5;
  const omega = f.s(32) * 2 ** -31 * ICD_PI;
  const omegaDot = f.s(24) * 2 ** -43 * ICD_PI;
  const idot = f.s(14) * 2 ** -43 * ICD_PI;
  const codes = f.u(2);
  const broadcastWeek = f.u(10);
  const accuracyIndex = f.u(4);
  const health = f.u(6);
  const tgd1 = f.s(8) * 2 ** -31;
  const iodc = f.u(10);
  const fitFlag = f.u(1);
  return {
    system: 'J',
    prn,
    messageType: 1044,
    ...ephemerisTimes(GPS_WEEK, broadcastWeek, toeSeconds, tocSeconds, received),
    toeSeconds,
    received,
    af0,
    af1,
    af2,
    iode,
    iodc,
    crs,
    deltaN,
    m0,
    cuc,
    e,
    cus,
    sqrtA,
    cic,
    omega0,
    cis,
    i0,
    crc,
    omega,
    omegaDot,
    idot,
    accuracyIndex,
    health,
    tgd1,
    tgd2: 0,
    codes,
    // QZSS does not transmit L2 P; RINEX 3.04 has the flag set to 1.
    l2pFlag: 1,
    fitFlag,
  };
}

function decodeNavic(f: Fields, received: GpsTime): KeplerEphemeris {
  const prn = f.u(6);
  checkPrn(1041, prn, 63);
  const broadcastWeek = f.u(10);
  const af0 = f.s(22) * 2 ** -31;
  const af1 = f.s(16) * 2 ** -43;
  const af2 = f.s(8) * 2 ** -55;
  const accuracyIndex = f.u(4);
  const tocSeconds = f.u(16) * 16;
  const tgd1 = f.s(8) * 2 ** -31;
  const deltaN = f.s(22) * 2 ** -41 * ICD_PI;
  const iode = f.u(8);
  f.skip(10);
  const health = f.u(2);
  const cuc = f.s(15) * 2 ** -28;
  const cus = f.s(15) * 2 ** -28;
  const cic = f.s(15) * 2 ** -28;
  const cis = f.s(15) * 2 ** -28;
  const crc = f.s(15) * 2 ** -4;
  const crs = f.s(15) * 2 ** -4;
  const idot = f.s(14) * 2 ** -43 * ICD_PI;
  const m0 = f.s(32) * 2 ** -31 * ICD_PI;
  const toeSeconds = f.u(16) * 16;
  const e = f.u(32) * 2 ** -33;
  const sqrtA = f.u(32) * 2 ** -19;
  const omega0 = f.s(32) * 2 ** -31 * ICD_PI;
  const omega = f.s(32) * 2 ** -31 * ICD_PI;
  const omegaDot = f.s(22) * 2 ** -41 * ICD_PI;
  const i0 = f.s(32) * 2 ** -31 * ICD_PI;
  return {
    system: 'I',
    prn,
    messageType: 1041,
    // The NavIC week counts from 1999-08-22 (GPS week 1024) in 10 bits, so it equals the GPS week modulo 1024.
    ...ephemerisTimes(GPS_WEEK, broadcastWeek, toeSeconds, tocSeconds, received),
    toeSeconds,
    received,
    af0,
    af1,
    af2,
    iode,
    iodc: iode,
    crs,
    deltaN,
    m0,
    cuc,
    e,
    cus,
    sqrtA,
    cic,
    omega0,
    cis,
    i0,
    crc,
    omega,
    omegaDot,
    idot,
    accuracyIndex,
    health,
    tgd1,
    tgd2: 0,
    codes: 0,
    l2pFlag: 0,
    fitFlag: 0,
  };
}

function decodeBeidou(f: Fields, received: GpsTime): KeplerEphemeris {
  const prn = f.u(6);
  checkPrn(1042, prn, 63);
  const broadcastWeek = f.u(13);
  const accuracyIndex = f.u(4);
  const idot = f.s(14) * 2 ** -43 * ICD_PI;
  const iode = f.u(5);
  const tocSeconds = f.u(17) * 8;
  const af2 = f.s(11) * 2 ** -66;
  const af1 = f.s(22) * 2 ** -50;
  const af0 = f.s(24) * 2 ** -33;
  const iodc = f.u(5);
  const crs = f.s(18) * 2 ** -6;
  const deltaN = f.s(16) * 2 ** -43 * ICD_PI;
  const m0 = f.s(32) * 2 ** -31 * ICD_PI;
  const cuc = f.s(18) * 2 ** -31;
  const e = f.u(32) * 2 ** -33;
  const cus = f.s(18) * 2 ** -31;
  const sqrtA = f.u(32) * 2 ** -19;
  const toeSeconds = f.u(17) * 8;
  const cic = f.s(18) * 2 ** -31;
  const omega0 = f.s(32) * 2 ** -31 * ICD_PI;
  const cis = f.s(18) * 2 ** -31;
  const i0 = f.s(32) * 2 ** -31 * ICD_PI;
  const crc = f.s(18) * 2 ** -6;
  const omega = f.s(32) * 2 ** -31 * ICD_PI;
  const omegaDot = f.s(24) * 2 ** -43 * ICD_PI;
  // TGD1 and TGD2 come in units of 0.1 ns.
  const tgd1 = f.s(10) * 1e-10;
  const tgd2 = f.s(10) * 1e-10;
  const health = f.u(1);
  return {
    system: 'C',
    prn,
    messageType: 1042,
    ...ephemerisTimes(BDT_WEEK, broadcastWeek, toeSeconds, tocSeconds, received),
    toeSeconds,
    received,
    af0,
    af1,
    af2,
    iode,
    iodc,
    crs,
    deltaN,
    m0,
    cuc,
    e,
    cus,
    sqrtA,
    cic,
    omega0,
    cis,
    i0,
    crc,
    omega,
    omegaDot,
    idot,
    accuracyIndex,
    health,
    tgd1,
    tgd2,
    codes: 0,
    l2pFlag: 0,
    fitFlag: 0,
  };
}

function decodeGalileo(f: Fields, received: GpsTime, type: 1045 | 1046): KeplerEphemeris {
  const prn = f.u(6);
  checkPrn(type, prn, 63);
  const broadcastWeek = f.u(12);
  const iode = f.u(10);
  const accuracyIndex = f.u(8);
  const idot = f.s(14) * 2 ** -43 * ICD_PI;
  const tocSeconds = f.u(14) * 60;
  const af2 = f.s(6) * 2 ** -59;
  const af1 = f.s(21) * 2 ** -46;
  const af0 = f.s(31) * 2 ** -34;
  const crs = f.s(16) * 2 ** -5;
  const deltaN = f.s(16) * 2 ** -43 * ICD_PI;
  const m0 = f.s(32) * 2 ** -31 * ICD_PI;
  const cuc = f.s(16) * 2 ** -29;
  const e = f.u(32) * 2 ** -33;
  const cus = f.s(16) * 2 ** -29;
  const sqrtA = f.u(32) * 2 ** -19;
  const toeSeconds = f.u(14) * 60;
  const cic = f.s(16) * 2 ** -29;
  const omega0 = f.s(32) * 2 ** -31 * ICD_PI;
  const cis = f.s(16) * 2 ** -29;
  const i0 = f.s(32) * 2 ** -31 * ICD_PI;
  const crc = f.s(16) * 2 ** -5;
  const omega = f.s(32) * 2 ** -31 * ICD_PI;
  const omegaDot = f.s(24) * 2 ** -43 * ICD_PI;
  const tgd1 = f.s(10) * 2 ** -32;
  let tgd2 = 0;
  let health: number;
  let codes: number;
  if (type === 1045) {
    const e5aHealth = f.u(2);
    const e5aValidity = f.u(1);
    health = (e5aHealth << 4) | (e5aValidity << 3);
    // Data sources: F/NAV E5a-I (bit 1); clock for E5a,E1 (bit 8).
    codes = (1 << 1) | (1 << 8);
  } else {
    tgd2 = f.s(10) * 2 ** -32;
    const e5bHealth = f.u(2);
    const e5bValidity = f.u(1);
    const e1Health = f.u(2);
    const e1Validity = f.u(1);
    health = (e5bHealth << 7) | (e5bValidity << 6) | (e1Health << 1) | e1Validity;
    // Data sources: I/NAV E1-B (bit 0) and E5b-I (bit 2), which 1046 does not tell apart; clock for E5b,E1 (bit 9).
    codes = (1 << 0) | (1 << 2) | (1 << 9);
  }
  return {
    system: 'E',
    prn,
    messageType: type,
    ...ephemerisTimes(GST_WEEK, broadcastWeek, toeSeconds, tocSeconds, received),
    toeSeconds,
    received,
    af0,
    af1,
    af2,
    iode,
    iodc: iode,
    crs,
    deltaN,
    m0,
    cuc,
    e,
    cus,
    sqrtA,
    cic,
    omega0,
    cis,
    i0,
    crc,
    omega,
    omegaDot,
    idot,
    accuracyIndex,
    health,
    tgd1,
    tgd2,
    codes,
    l2pFlag: 0,
    fitFlag: 0,
  };
}

function decodeGlonass(f: Fields, received: GpsTime): GlonassEphemeris {
  const prn = f.u(6);
  checkPrn(1020, prn, 63);
  const frequencyChannel = f.u(5) - 7;
  // Almanac health and its availability, P1.
  f.skip(1 + 1 + 2);
  const tkHours = f.u(5);
  const tkMinutes = f.u(6);
  const tkSeconds = f.u(1) * 30;
  const health = f.u(1);
  f.skip(1);
  const tb = f.u(7);
  const xDot = f.sm(24) * 2 ** -20;
  const x = f.sm(27) * 2 ** -11;
  const xAcc = f.sm(5) * 2 ** -30;
  const yDot = f.sm(24) * 2 ** -20;
  const y = f.sm(27) * 2 ** -11;
  const yAcc = f.sm(5) * 2 ** -30;
  const zDot = f.sm(24) * 2 ** -20;
  const z = f.sm(27) * 2 ** -11;
  const zAcc = f.sm(5) * 2 ** -30;
  f.skip(1);
  const gammaN = f.sm(11) * 2 ** -40;
  // P, ln.
  f.skip(2 + 1);
  const tauN = f.sm(22) * 2 ** -30;
  f.skip(5);
  const age = f.u(5);
  // tk and tb are Moscow times of day; each is taken on the day that puts it nearest the receiver's time.
  return {
    system: 'R',
    prn,
    messageType: 1020,
    frequencyChannel,
    toe: resolveGlonassTod(tb * 900, received),
    frameTime: resolveGlonassTod(tkHours * 3600 + tkMinutes * 60 + tkSeconds, received),
    received,
    position: [x, y, z],
    velocity: [xDot, yDot, zDot],
    acceleration: [xAcc, yAcc, zAcc],
    tauN,
    gammaN,
    health,
    age,
  };
}
