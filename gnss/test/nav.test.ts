import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getBitU } from '../src/bits.ts';
import {
  decodeEphemeris,
  type Ephemeris,
  EphemerisDecodeError,
  formatD19,
  formatNavRecord,
  type GlonassEphemeris,
  gpsFitHours,
  type KeplerEphemeris,
  NavWriter,
} from '../src/nav/index.ts';
import { addSeconds, diffSeconds, type GpsTime, gpsTime, parseApproxTime } from '../src/time.ts';
import { encodeFrame, frameMessageType, framePayload, validFrames } from '../src/transport.ts';

const frames = (name: string) => validFrames(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
const OEM = frames('oem729_hiroshima_20221213_msm7_alleph.rtcm3');
const GMSD7 = frames('GMSD7_20121014_netr9_msm7_weekrollover.rtcm3');
const at = (text: string) => parseApproxTime(text) as GpsTime;

/** The first frame of a message type whose satellite ID (the 6 bits after the message number) is `id`. */
function frameOf(capture: Buffer[], type: number, id?: number): Buffer {
  const found = capture.find(
    (f) => frameMessageType(f) === type && (id === undefined || getBitU(framePayload(f), 12, 6) === id),
  );
  if (!found) throw new Error(`no ${type} for ${id} in the capture`);
  return found;
}

/** A copy of a frame with one payload field replaced, CRC recomputed. */
function withField(frame: Buffer, pos: number, len: number, value: number): Buffer {
  const payload = Buffer.from(framePayload(frame));
  for (let i = 0; i < len; i++) {
    const bit = Math.floor(value / 2 ** (len - 1 - i)) % 2;
    const byte = (pos + i) >> 3;
    const mask = 0x80 >> ((pos + i) & 7);
    payload[byte] = bit ? (payload[byte] as number) | mask : (payload[byte] as number) & ~mask;
  }
  return encodeFrame(payload);
}

const kepler = (frame: Buffer, time: GpsTime) => decodeEphemeris(frame, time) as KeplerEphemeris;
const glonass = (frame: Buffer, time: GpsTime) => decodeEphemeris(frame, time) as GlonassEphemeris;

describe('ephemeris week', () => {
  // GMSD7: G28 is broadcast with week 685 (1709 modulo 1024), toe 604784 s (Saturday 23:59:44);
  // G29 with week 686 (1710), toe 0.
  const g28 = frameOf(GMSD7, 1019, 28);
  const g29 = frameOf(GMSD7, 1019, 29);

  it('comes from the time the caller gives, across the 1024-week rollover, never from the computer clock', () => {
    expect(kepler(g28, at('2012/10/13 23:59:50')).week).toBe(1709);
    const cycleLater = addSeconds(at('2012/10/13 23:59:50'), 1024 * 604_800);
    expect(kepler(g28, cycleLater).week).toBe(1709 + 1024);
    expect(kepler(g28, cycleLater).toe).toEqual(gpsTime(1709 + 1024, 604_784));
  });

  it('is the week of toe, the one nearest the receiver time, when the broadcast week is the other side', () => {
    const justBefore = at('2012/10/13 23:59:50');
    expect(kepler(g29, justBefore).toe).toEqual(gpsTime(1710, 0));
    // A receiver that sends the week of transmission (1709) for an ephemeris whose toe is next week's start.
    const transmissionWeek = withField(g29, 18, 10, 685);
    expect(kepler(transmissionWeek, justBefore).week).toBe(1710);
    expect(kepler(transmissionWeek, justBefore).toe).toEqual(gpsTime(1710, 0));
    expect(kepler(g28, at('2012/10/14 00:03:00')).toe).toEqual(gpsTime(1709, 604_784));
  });

  it('follows the broadcast week when the given time is weeks off', () => {
    expect(kepler(g28, at('2012/11/03 12:00:00')).week).toBe(1709);
  });

  it('is written in BDT for BeiDou, whose toe and toc run 14 s behind GPS time', () => {
    const eph = kepler(frameOf(OEM, 1042), at('2022/12/13 01:09:30'));
    expect(diffSeconds(eph.toe, gpsTime(eph.week + 1356, eph.toeSeconds))).toBe(14);
    expect(formatNavRecord(eph).slice(4, 23)).toBe('2022 12 13 01 00 00');
    expect(formatNavRecord({ ...eph, toc: addSeconds(eph.toc, -14) }).slice(4, 23)).toBe('2022 12 13 00 59 46');
  });
});

describe('GLONASS ephemeris', () => {
  const frame = frameOf(OEM, 1020);

  it('exports the frequency channel, DF040 − 7', () => {
    expect(glonass(withField(frame, 18, 5, 0), at('2022/12/13 01:09:30')).frequencyChannel).toBe(-7);
    expect(glonass(withField(frame, 18, 5, 20), at('2022/12/13 01:09:30')).frequencyChannel).toBe(13);
  });

  it('takes tb on the Moscow day nearest the receiver time', () => {
    const today = glonass(frame, at('2022/12/13 01:09:30'));
    const tomorrow = glonass(frame, at('2022/12/14 01:09:30'));
    expect(diffSeconds(tomorrow.toe, today.toe)).toBe(86_400);
    expect(diffSeconds(tomorrow.frameTime, today.frameTime)).toBe(86_400);
  });

  it('reads sign-magnitude fields: a set sign bit with zero magnitude is zero, not −2^n', () => {
    // τn (22 bits) starts at bit 12+6+5+4+12+1+1+7+3×56+1+11+2+1 = 231.
    const zero = glonass(withField(withField(frame, 231, 1, 1), 232, 21, 0), at('2022/12/13 01:09:30'));
    expect(formatNavRecord(zero).slice(23, 42)).toBe(' 0.000000000000D+00');
    const minusOne = glonass(withField(withField(frame, 231, 1, 1), 232, 21, 1), at('2022/12/13 01:09:30'));
    expect(minusOne.tauN).toBe(-(2 ** -30));
    // RINEX's clock bias is −τn.
    expect(formatNavRecord(minusOne).slice(23, 42)).toBe(formatD19(2 ** -30));
  });
});

describe('malformed ephemeris frames', () => {
  it('are refused with the message number, and other messages are not ephemerides', () => {
    const g = frameOf(GMSD7, 1019, 28);
    const cut = encodeFrame(framePayload(g).subarray(0, 40));
    expect(() => decodeEphemeris(cut, at('2012/10/13 23:59:50'))).toThrow(EphemerisDecodeError);
    expect(() => decodeEphemeris(cut, at('2012/10/13 23:59:50'))).toThrow(/RTCM 1019: 40 bytes/);
    expect(() => decodeEphemeris(withField(g, 12, 6, 0), at('2012/10/13 23:59:50'))).toThrow(/satellite ID 0/);
    // IDs 40–58 carry SBAS in 1019, whose RINEX record is a state vector, not Keplerian elements.
    expect(() => decodeEphemeris(withField(g, 12, 6, 40), at('2012/10/13 23:59:50'))).toThrow(/satellite ID 40/);
    expect(decodeEphemeris(frameOf(OEM, 1005), at('2022/12/13 01:09:30'))).toBeNull();
  });
});

describe('RINEX numbers', () => {
  it('prints D19.12 with twelve significant digits, rounding exact ties to even', () => {
    expect(formatD19(0)).toBe(' 0.000000000000D+00');
    expect(formatD19(-0)).toBe(' 0.000000000000D+00');
    expect(formatD19(-14986.45703125)).toBe('-0.149864570312D+05');
    expect(formatD19(1_234_567_890_135)).toBe(' 0.123456789014D+13');
    expect(formatD19(999_999_999_999.5)).toBe(' 0.100000000000D+13');
    expect(formatD19(0.999_999_999_999_96)).toBe(' 0.100000000000D+01');
    expect(formatD19(2 ** -55)).toBe(' 0.277555756156D-16');
    expect(formatD19(-1)).toBe('-0.100000000000D+01');
  });

  it('writes the GPS fit interval in hours from the fit flag and IODC (IS-GPS-200 table 20-XII)', () => {
    expect(gpsFitHours(0, 100)).toBe(4);
    expect(gpsFitHours(1, 100)).toBe(6);
    expect(gpsFitHours(1, 245)).toBe(8);
    expect(gpsFitHours(1, 496)).toBe(14);
    // The fit flag is the payload's last bit (487) of 1019.
    const flagged = kepler(withField(frameOf(GMSD7, 1019, 28), 487, 1, 1), at('2012/10/13 23:59:50'));
    const lastLine = formatNavRecord(flagged).trimEnd().split('\n').at(-1) as string;
    expect(lastLine.slice(23, 42)).toBe(formatD19(gpsFitHours(1, flagged.iodc)));
  });
});

describe('NavWriter', () => {
  const collect = (options: ConstructorParameters<typeof NavWriter>[1] = {}) => {
    const chunks: string[] = [];
    const writer = new NavWriter({ write: (chunk) => chunks.push(chunk) }, { created: new Date(0), ...options });
    return { writer, chunks };
  };
  const clock = at('2022/12/13 01:09:30');
  const all = OEM.map((f) => decodeEphemeris(f, clock)).filter((e): e is Ephemeris => e !== null);

  it('writes the header at once and each new ephemeris as it is added, once per satellite and issue', () => {
    const { writer, chunks } = collect();
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatch(/^ {5}3\.04 {11}N: GNSS NAV DATA {4}M: MIXED {12}RINEX VERSION \/ TYPE\n/);
    expect(chunks[0]).toMatch(/\n {60}END OF HEADER\n$/);
    const first = all[0] as Ephemeris;
    expect(writer.add(first)).toBe(true);
    expect(chunks).toHaveLength(2);
    expect(chunks[1]).toBe(formatNavRecord(first));
    expect(writer.add(first)).toBe(false);
    for (const eph of all) writer.add(eph);
    const written = writer.written;
    for (const eph of all) writer.add(eph);
    expect(writer.written).toBe(written);
    const g = all.find((e): e is KeplerEphemeris => e.system === 'G') as KeplerEphemeris;
    expect(writer.add({ ...g, iode: (g.iode + 1) % 256 })).toBe(true);
  });

  it('keeps Galileo F/NAV and I/NAV of the same issue apart', () => {
    const { writer, chunks } = collect({ systems: 'E' });
    const fnav = all.find((e) => e.messageType === 1045) as KeplerEphemeris;
    const inav = all.find((e) => e.messageType === 1046 && e.prn === fnav.prn && e.iode === fnav.iode);
    expect(inav).toBeDefined();
    expect(writer.add(fnav)).toBe(true);
    expect(writer.add(inav as Ephemeris)).toBe(true);
    expect(chunks[0]).toContain('N: GNSS NAV DATA    E: Galileo');
  });

  it('writes only the constellations asked for', () => {
    const { writer, chunks } = collect({ systems: 'gr' });
    for (const eph of all) writer.add(eph);
    const satellites = chunks.slice(1).map((record) => record[0]);
    expect(new Set(satellites)).toEqual(new Set(['G', 'R']));
    expect(() => collect({ systems: 'GX' })).toThrow(/unknown constellation "X"/);
  });

  it('writes only ephemerides received inside the window [from, to)', () => {
    const received = (t: GpsTime) => all.map((e) => ({ ...e, received: t }) as Ephemeris);
    const { writer } = collect({ from: clock, to: addSeconds(clock, 60) });
    for (const eph of received(addSeconds(clock, -1))) writer.add(eph);
    for (const eph of received(addSeconds(clock, 60))) writer.add(eph);
    expect(writer.written).toBe(0);
    for (const eph of received(addSeconds(clock, 59))) writer.add(eph);
    expect(writer.written).toBeGreaterThan(0);
  });
});
