/**
 * Long synthetic RTCM 3 inputs for `npm run bench:rinex`: a short capture repeated back to back, each copy's times
 * moved on by the capture's length so the epochs continue at the capture's rate, every frame re-encoded with its
 * CRC. Observation values repeat, so each copy starts with lock-time indicators lower than where the previous copy
 * ended: every signal slips once per copy, in both converters alike.
 *
 * - MSM (every constellation): the epoch time (DF004 and its siblings; GLONASS day of week and time of day) moves
 *   by the copy's offset.
 * - Ephemerides move by whole hours of that offset, and their issue of data counts up once per hour, so each hour
 *   brings a new set as a station's hourly archive would (an ephemeris whose toe moved by a minute would be
 *   impossible: toe counts 16 s for GPS, 60 s for Galileo, 15 min for GLONASS).
 * - Station messages (1005/1006, 1007/1008/1033, 1230) carry no time and are copied.
 *
 * The copies must stay inside the capture's GPS week (a day from a Tuesday does); GLONASS days roll over.
 */
import { getBitU } from '../src/bits.ts';
import { msmKind } from '../src/obs/signals.ts';
import { crc24q, FRAME_HEADER, frameMessageType, validFrames } from '../src/transport.ts';

const WEEK_MS = 604_800_000;
const DAY_MS = 86_400_000;

function setBits(buf: Uint8Array, pos: number, len: number, value: number): void {
  for (let i = 0; i < len; i++) {
    const at = pos + i;
    const mask = 1 << (7 - (at & 7));
    const bit = Math.floor(value / 2 ** (len - 1 - i)) % 2;
    buf[at >> 3] = bit ? (buf[at >> 3] as number) | mask : (buf[at >> 3] as number) & ~mask;
  }
}

class WeekOverflow extends Error {}

/** A time-of-week field counting `unitMs` milliseconds moved by `seconds`; the copies never leave the week. */
function moveTow(payload: Uint8Array, pos: number, len: number, unitMs: number, seconds: number): void {
  const value = getBitU(payload, pos, len) + (seconds * 1000) / unitMs;
  if (value * unitMs >= WEEK_MS) throw new WeekOverflow();
  setBits(payload, pos, len, value);
}

function bumpIssue(payload: Uint8Array, pos: number, len: number, by: number): void {
  setBits(payload, pos, len, (getBitU(payload, pos, len) + by) % 2 ** len);
}

/**
 * Bit positions (after the frame header) of each ephemeris's times and issue of data, RTCM 10403.3 DF071–DF137,
 * DF252, DF286–DF317, DF429–DF457, DF488–DF515.
 */
function moveEphemeris(type: number, payload: Uint8Array, hours: number): void {
  const s = hours * 3600;
  switch (type) {
    case 1019: // GPS: toc, toe in 16 s; IODE, and IODC whose low 8 bits repeat it
    case 1044: {
      // QZSS: the same fields elsewhere
      const [toc, toe, iode, iodc] = type === 1019 ? [56, 288, 48, 118] : [16, 246, 78, 474];
      moveTow(payload, toc, 16, 16_000, s);
      moveTow(payload, toe, 16, 16_000, s);
      bumpIssue(payload, iode, 8, hours);
      const old = getBitU(payload, iodc, 10);
      setBits(payload, iodc, 10, (old & 0x300) | ((old + hours) & 0xff));
      return;
    }
    case 1041: // NavIC: toc, toe in 16 s; IODEC
      moveTow(payload, 78, 16, 16_000, s);
      moveTow(payload, 280, 16, 16_000, s);
      bumpIssue(payload, 124, 8, hours);
      return;
    case 1042: // BeiDou: toc, toe in 8 s (BDT); convbin and we tell issues apart by toe
      moveTow(payload, 54, 17, 8_000, s);
      moveTow(payload, 299, 17, 8_000, s);
      return;
    case 1045: // Galileo F/NAV and I/NAV: toc, toe in 60 s; IODnav
    case 1046:
      moveTow(payload, 62, 14, 60_000, s);
      moveTow(payload, 294, 14, 60_000, s);
      bumpIssue(payload, 30, 10, hours);
      return;
    case 1020: {
      // GLONASS: tk (hours of the Moscow day), tb (15 min of the Moscow day), and NT (the day of tb)
      setBits(payload, 27, 5, (getBitU(payload, 27, 5) + hours) % 24);
      const tb = getBitU(payload, 41, 7) + hours * 4;
      setBits(payload, 41, 7, tb % 96);
      const nt = getBitU(payload, 268, 11);
      if (nt !== 0) setBits(payload, 268, 11, nt + Math.floor(tb / 96));
      return;
    }
  }
}

function moveMsm(payload: Uint8Array, glonass: boolean, seconds: number): void {
  if (glonass) {
    const dow = getBitU(payload, 24, 3);
    const tod = getBitU(payload, 27, 27) + seconds * 1000;
    setBits(payload, 27, 27, tod % DAY_MS);
    // Day of week 7 means "unknown" and stays so.
    if (dow !== 7) setBits(payload, 24, 3, (dow + Math.floor(tod / DAY_MS)) % 7);
    return;
  }
  moveTow(payload, 24, 30, 1, seconds);
}

export interface RepeatOptions {
  /** Copies to make; copy k is moved by k × period seconds. */
  copies: number;
  /** Seconds between the copies' starts: the capture's length (60 for a minute at 1 Hz). */
  period: number;
}

/**
 * The capture's valid frames (a frame cut at its start or end is left out), repeated with moved times, as one
 * buffer per copy.
 */
export function* repeatCapture(capture: Buffer, options: RepeatOptions): Generator<Buffer> {
  const frames = validFrames(capture);
  const template = Buffer.concat(frames);
  const layout = frames.map((f) => ({ type: frameMessageType(f), length: f.length }));
  for (let k = 0; k < options.copies; k++) {
    const seconds = k * options.period;
    const hours = Math.floor(seconds / 3600);
    const copy = Buffer.from(template);
    let at = 0;
    for (const { type, length } of layout) {
      const payload = copy.subarray(at + FRAME_HEADER, at + length - 3);
      const msm = msmKind(type);
      try {
        if (msm && seconds > 0) moveMsm(payload, msm.sys === 'R', seconds);
        else if (hours > 0) moveEphemeris(type, payload, hours);
      } catch (e) {
        if (e instanceof WeekOverflow) {
          throw new Error(`copy ${k} (+${seconds} s) would leave the capture's GPS week; use fewer copies`);
        }
        throw e;
      }
      copy.writeUIntBE(crc24q(copy, at, at + length - 3), at + length - 3, 3);
      at += length;
    }
    yield copy;
  }
}
