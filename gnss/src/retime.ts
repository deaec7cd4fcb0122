import { getBitU } from './bits.ts';
import { utcToGpst } from './time.ts';
import { encodeFrame, frameMessageType, framePayload, validFrames } from './transport.ts';

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
/** Every observation message's epoch starts after its 12-bit type and 12-bit station ID. */
const EPOCH_BIT = 24;

const mod = (a: number, m: number) => ((a % m) + m) % m;

/** How an observation message carries its epoch: ms of the week (GPS, Galileo, QZSS, SBAS, NavIC, BeiDou), GLONASS. */
function epochField(type: number): 'week' | 'glonass-msm' | 'glonass-legacy' | null {
  if ((type >= 1001 && type <= 1004) || (type >= 1071 && type <= 1077)) return 'week';
  if (type >= 1081 && type <= 1087) return 'glonass-msm';
  if (type >= 1009 && type <= 1012) return 'glonass-legacy';
  if ((type >= 1091 && type <= 1127) || (type >= 1131 && type <= 1137)) return 'week';
  return null;
}

function setBits(data: Buffer, pos: number, len: number, value: number): void {
  for (let i = 0; i < len; i++) {
    const bit = Math.floor(value / 2 ** (len - 1 - i)) % 2;
    const byte = (pos + i) >> 3;
    const mask = 0x80 >> ((pos + i) & 7);
    data[byte] = bit ? (data[byte] as number) | mask : (data[byte] as number) & ~mask;
  }
}

/** The first observation epoch on the GPS week's scale in `frames` (ms of the week), or null without one. */
export function firstWeekEpochMs(frames: readonly Buffer[]): number | null {
  for (const frame of frames) {
    if (epochField(frameMessageType(frame)) === 'week') return getBitU(framePayload(frame), EPOCH_BIT, 30);
  }
  return null;
}

/**
 * The shift (ms, modulo a week) that moves an epoch of `epochMs` (ms of the GPS week) to the whole second of `at`
 * (UTC, Unix ms), keeping the epoch's fraction of a second.
 */
export function epochShiftTo(epochMs: number, at: number): number {
  const target = utcToGpst(Math.floor(at / 1000) * 1000);
  return mod(Math.round(target.tow) * 1000 - Math.floor(epochMs / 1000) * 1000, WEEK_MS);
}

/** The frame with its observation epoch moved by `shiftMs`; any other message as it is. */
export function retimeFrame(frame: Buffer, shiftMs: number): Buffer {
  const field = epochField(frameMessageType(frame));
  if (!field) return frame;
  const payload = Buffer.from(framePayload(frame));
  if (field === 'week') {
    setBits(payload, EPOCH_BIT, 30, mod(getBitU(payload, EPOCH_BIT, 30) + shiftMs, WEEK_MS));
  } else if (field === 'glonass-legacy') {
    setBits(payload, EPOCH_BIT, 27, mod(getBitU(payload, EPOCH_BIT, 27) + shiftMs, DAY_MS));
  } else {
    const day = getBitU(payload, EPOCH_BIT, 3);
    const tod = getBitU(payload, EPOCH_BIT + 3, 27);
    // Day 7 means the receiver does not know the day: only the time of day moves.
    const moved = day === 7 ? mod(tod + shiftMs, DAY_MS) : mod(day * DAY_MS + tod + shiftMs, WEEK_MS);
    if (day !== 7) setBits(payload, EPOCH_BIT, 3, Math.floor(moved / DAY_MS));
    setBits(payload, EPOCH_BIT + 3, 27, moved % DAY_MS);
  }
  return encodeFrame(payload);
}

/**
 * A real capture as a base station would send it at another time: every observation message's epoch moved by the
 * same whole number of seconds so the first lands on `start` (UTC); station and ephemeris messages unchanged. A
 * live station's frames arrive within a second of their epoch, and the archive files frames by the hour they
 * arrive in, so a capture replayed now must carry epochs of now.
 */
export function retimeCapture(capture: Buffer, start: number): Buffer {
  const frames = validFrames(capture);
  const first = firstWeekEpochMs(frames);
  if (first === null) throw new Error('the capture has no observation message');
  const shift = epochShiftTo(first, start);
  return Buffer.concat(frames.map((frame) => retimeFrame(frame, shift)));
}

/**
 * Moves a replayed capture's epochs to the time each is sent, as a live receiver's would be: one shift for as long
 * as the epochs keep pace with the clock, a new one when they do not (the capture starts over, or a gap in it was
 * sent after a second instead of its length). Epochs without a GPS-week epoch (GLONASS only) take the last shift.
 */
export function createRetimer(): (frames: Buffer[], at: number) => Buffer[] {
  let shift: number | null = null;
  return (frames, at) => {
    const epoch = firstWeekEpochMs(frames);
    if (epoch !== null) {
      const now = utcToGpst(at).tow * 1000;
      const off = shift === null ? WEEK_MS : mod(epoch + shift - now + WEEK_MS / 2, WEEK_MS) - WEEK_MS / 2;
      if (Math.abs(off) > 1500) shift = epochShiftTo(epoch, at);
    }
    const current = shift;
    return current === null ? frames : frames.map((frame) => retimeFrame(frame, current));
  };
}
