import { validFrames } from '@portal/caster';
import { encodeFrame, frameMessageType, framePayload, getBitU, utcToGpst } from '@portal/gnss';

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
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

/** The first GPS-time observation epoch of a capture, as ms of the GPS week. */
function firstEpochMs(frames: Buffer[]): number {
  for (const frame of frames) {
    if (epochField(frameMessageType(frame)) === 'week') return getBitU(framePayload(frame), EPOCH_BIT, 30);
  }
  throw new Error('the capture has no observation message');
}

/**
 * A real capture as a base station would send it at another time: every observation message's epoch moved by the
 * same whole number of seconds so the first lands on `start` (UTC); station and ephemeris messages unchanged. A
 * live station's frames arrive within a second of their epoch, and the archive files frames by the hour they
 * arrive in, so a capture replayed now must carry epochs of now.
 */
export function retimeCapture(capture: Buffer, start: number): Buffer {
  const frames = validFrames(capture);
  const target = utcToGpst(Math.floor(start / 1000) * 1000);
  const first = firstEpochMs(frames);
  const shift = mod(Math.round(target.tow) * 1000 - Math.floor(first / 1000) * 1000, WEEK_MS);
  return Buffer.concat(
    frames.map((frame) => {
      const field = epochField(frameMessageType(frame));
      if (!field) return frame;
      const payload = Buffer.from(framePayload(frame));
      if (field === 'week') {
        setBits(payload, EPOCH_BIT, 30, mod(getBitU(payload, EPOCH_BIT, 30) + shift, WEEK_MS));
      } else if (field === 'glonass-legacy') {
        setBits(payload, EPOCH_BIT, 27, mod(getBitU(payload, EPOCH_BIT, 27) + shift, DAY_MS));
      } else {
        const day = getBitU(payload, EPOCH_BIT, 3);
        const tod = getBitU(payload, EPOCH_BIT + 3, 27);
        // Day 7 means the receiver does not know the day: only the time of day moves.
        const moved = day === 7 ? mod(tod + shift, DAY_MS) : mod(day * DAY_MS + tod + shift, WEEK_MS);
        if (day !== 7) setBits(payload, EPOCH_BIT, 3, Math.floor(moved / DAY_MS));
        setBits(payload, EPOCH_BIT + 3, 27, moved % DAY_MS);
      }
      return encodeFrame(payload);
    }),
  );
}
