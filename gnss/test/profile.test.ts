/**
 * The output profiles beyond what the captures show by themselves: a loss of lock in the input's 10-bit DF407 that the
 * coarser MSM4 DF402 or legacy DF013 would hide (both lock times in one coarse step) still reaches the rover as one;
 * the catalogue's antenna texts within what 1008/1033 allow; MSM5 and MSM6 input made into the same MSM4 as MSM7.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BitWriter } from '../src/bit-writer.ts';
import { getBitU } from '../src/bits.ts';
import { ObservationDecoder } from '../src/obs/decoder.ts';
import { LLI_SLIP, type ObservationEpoch } from '../src/obs/types.ts';
import { createProfileEncoder, type RtcmProfile } from '../src/profile/index.ts';
import { df407LockMs, parseMsm } from '../src/profile/msm.ts';
import { decodeStationMessage, emptyStation, encodeStationPosition } from '../src/station.ts';
import { parseApproxTime } from '../src/time.ts';
import { encodeFrame, frameMessageType, validFrames } from '../src/transport.ts';

const HIRO = fileURLToPath(new URL('./fixtures/oem729_hiroshima_20221213_msm7_alleph.rtcm3', import.meta.url));
const APPROX = parseApproxTime('2022/12/13 01:09:00') as NonNullable<ReturnType<typeof parseApproxTime>>;

/** The DF407 indicator whose minimum lock time is `ms`. */
function df407(ms: number): number {
  const i = Array.from({ length: 705 }, (_, k) => k).find((k) => df407LockMs(k) === ms);
  if (i === undefined) throw new Error(`no DF407 for ${ms} ms`);
  return i;
}

/** A 1077 frame with the lock time indicator of its first satellite's first signal replaced. */
function withLock(frame: Buffer, indicator: number): Buffer {
  const payload = frame.subarray(3, frame.length - 3);
  const msm = parseMsm(payload, 'G', 7);
  if (!msm || (msm.cellIndex[0] as number) < 0) throw new Error('no first cell');
  const ncell = msm.finePr.length;
  const at = msm.headerEnd + msm.sats.length * 36 + ncell * 44 + (msm.cellIndex[0] as number) * 10;
  const w = new BitWriter(payload.length);
  w.copy(payload, 0, at);
  w.u(10, indicator);
  w.copy(payload, at + 10, payload.length * 8 - at - 10);
  return encodeFrame(w.bytes());
}

/**
 * Runs the Hiroshima capture through a profile with the first GPS cell's lock times replaced in consecutive epochs,
 * decodes the output and returns the loss-of-lock bit of that signal's phase at those epochs.
 */
async function slipsOfFirstSignal(profile: RtcmProfile, locksMs: number[]): Promise<number[]> {
  const frames = validFrames(await readFile(HIRO));
  const gps = frames.flatMap((f, i) => (frameMessageType(f) === 1077 ? [i] : [])).slice(5, 5 + locksMs.length);
  const first = frames[gps[0] as number] as Buffer;
  const prn = parseMsm(first.subarray(3, first.length - 3), 'G', 7)?.sats[0] as number;
  const tows = gps.map((i, n) => {
    frames[i] = withLock(frames[i] as Buffer, df407(locksMs[n] as number));
    return getBitU(frames[i] as Buffer, 24 + 24, 30) / 1000;
  });
  const encoder = createProfileEncoder({ profile, constellations: null });
  const epochs: ObservationEpoch[] = [];
  const decoder = new ObservationDecoder({ approxTime: APPROX }, (e) => epochs.push(e));
  for (const f of frames) for (const out of encoder.push(f)) decoder.decode(out.subarray(3, out.length - 3));
  return tows.map((tow) => {
    const epoch = epochs.find((e) => Math.abs(e.time.tow - tow) < 1e-6);
    const signal = epoch?.satellites.find((s) => s.sys === 'G' && s.prn === prn)?.signals.find((s) => s.code === '1C');
    if (!signal) throw new Error(`no G${prn} L1C at ${tow}`);
    return signal.lli & LLI_SLIP;
  });
}

describe('lock time indicators keep every loss of lock', () => {
  it('as-sent (the input as decoded): the DF407 sequences below go down where the tests expect a slip', async () => {
    expect(await slipsOfFirstSignal('as-sent', [992, 672, 832, 1984])).toEqual([1, 1, 0, 0]);
    expect(await slipsOfFirstSignal('as-sent', [6656, 6528, 7680, 8704])).toEqual([1, 1, 0, 0]);
  });

  it('MSM4: DF407 992 → 672 ms lies within one DF402 step (512–1023 ms) and is still a loss of lock', async () => {
    expect(await slipsOfFirstSignal('msm4', [992, 672, 832, 1984])).toEqual([1, 1, 0, 0]);
  });

  it('legacy: 6656 → 6528 ms is 7 s both times in DF013 and is still a loss of lock', async () => {
    expect(await slipsOfFirstSignal('legacy', [6656, 6528, 7680, 8704])).toEqual([1, 1, 0, 0]);
  });
});

describe('antenna messages from the catalogue', () => {
  it('follow a 1005 with 1008 and 1033 of at most 31 printable characters per text and a setup ID in 0–255', () => {
    const encoder = createProfileEncoder({
      profile: 'as-sent',
      constellations: null,
      antenna: { descriptor: `LEIAR25.R4      LEIT${'X'.repeat(20)}`, setupId: 300, serialNumber: 'Sérial' },
      receiver: { type: 'LEICA GR50', firmware: '4.50' },
    });
    const position = encodeStationPosition([3_900_000, 300_000, 5_000_000], 42);
    const out = encoder.push(position);
    expect(out.map(frameMessageType)).toEqual([1005, 1008, 1033]);
    expect(out[0]).toBe(position);
    for (const f of out.slice(1)) {
      const info = emptyStation();
      expect(decodeStationMessage(f.subarray(3, f.length - 3), info)).toBe(true);
      expect(info.stationId).toBe(42);
      expect(info.antennaDescriptor).toBe(`LEIAR25.R4      LEIT${'X'.repeat(11)}`);
      expect(info.antennaSetupId).toBe(0);
      expect(info.antennaSerial).toBe('S?rial');
      if (frameMessageType(f) === 1033) {
        expect([info.receiverType, info.receiverFirmware, info.receiverSerial]).toEqual(['LEICA GR50', '4.50', '']);
      }
    }
    // The station sends no 1033 of its own, so every position brings one.
    expect(encoder.push(position).map(frameMessageType)).toEqual([1005, 1008, 1033]);
  });
});

/**
 * MSM of another kind made from a whole frame by moving fields (no values computed): MSM7 → MSM6 leaves out
 * the extended satellite information, DF399 and DF404; MSM4 → MSM5 adds them, as "not known" / "not valid".
 */
function otherKind(frame: Uint8Array, to: 5 | 6): Buffer {
  const payload = frame.subarray(3, frame.length - 3);
  const type = frameMessageType(frame);
  const from = type % 10;
  const msm = parseMsm(payload, 'G', from);
  if (!msm) throw new Error('not an MSM');
  const nsat = msm.sats.length;
  const ncell = msm.finePr.length;
  const w = new BitWriter();
  w.u(12, type - from + to);
  let at = 12;
  const copy = (bits: number) => {
    w.copy(payload, at, bits);
    at += bits;
  };
  copy(msm.headerEnd - 12);
  copy(nsat * 8); // DF397
  if (to === 6) at += nsat * 4;
  else for (let i = 0; i < nsat; i++) w.u(4, 15);
  copy(nsat * 10); // DF398
  if (to === 6) at += nsat * 14;
  else for (let i = 0; i < nsat; i++) w.s(14, -8192);
  const cellBits = to === 6 ? 20 + 24 + 10 + 1 + 10 : 15 + 22 + 4 + 1 + 6;
  copy(ncell * cellBits);
  if (to === 5) for (let j = 0; j < ncell; j++) w.s(15, -16384);
  return encodeFrame(w.bytes());
}

describe('msm4 from every MSM kind', () => {
  it('MSM6 gives the MSM4 that MSM7 gives, and MSM5 made of that MSM4 gives it back byte for byte', async () => {
    const frames = validFrames(await readFile(HIRO));
    const isMsm7 = (f: Uint8Array) => {
      const t = frameMessageType(f);
      return t >= 1071 && t <= 1137 && t % 10 === 7;
    };
    const run = (input: Uint8Array[]) => {
      const encoder = createProfileEncoder({ profile: 'msm4', constellations: null });
      return input.flatMap((f) => encoder.push(f)).map((f) => Buffer.from(f).toString('hex'));
    };
    const msm4 = run(frames);
    const viaMsm6 = run(frames.map((f) => (isMsm7(f) ? otherKind(f, 6) : f)));
    expect(viaMsm6).toEqual(msm4);
    const encoder = createProfileEncoder({ profile: 'msm4', constellations: null });
    const msm4Frames = frames.flatMap((f) => encoder.push(f));
    const isMsm4 = (f: Uint8Array) => {
      const t = frameMessageType(f);
      return t >= 1071 && t <= 1137 && t % 10 === 4;
    };
    const viaMsm5 = run(msm4Frames.map((f) => (isMsm4(f) ? otherKind(f, 5) : f)));
    expect(viaMsm5).toEqual(msm4);
    expect(msm4Frames.filter(isMsm4).length).toBeGreaterThan(400);
  });
});

describe('damaged input', () => {
  it('frames with flipped bits or cut short never make an encoder throw, and what comes out is CRC-valid', async () => {
    const frames = validFrames(await readFile(HIRO));
    let seed = 11;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const damaged = frames.map((f) => {
      const payload = Buffer.from(f.subarray(3, f.length - 3));
      if (random() < 0.5) {
        // Bits past the message number: the type stays, its contents go wrong.
        for (let k = 0; k < 8; k++) {
          const bit = 12 + Math.floor(random() * (payload.length * 8 - 12));
          payload[bit >> 3] = (payload[bit >> 3] as number) ^ (0x80 >> (bit & 7));
        }
        return encodeFrame(payload);
      }
      return encodeFrame(payload.subarray(0, 2 + Math.floor(random() * (payload.length - 2))));
    });
    for (const profile of ['as-sent', 'msm4', 'legacy'] as const) {
      const encoder = createProfileEncoder({
        profile,
        constellations: ['GPS', 'GLO', 'GAL'],
        antenna: { descriptor: 'TRM59800.00     SCIS', setupId: 0 },
      });
      const out = damaged.flatMap((f) => encoder.push(f));
      expect(out.length).toBeGreaterThan(0);
      const bytes = Buffer.concat(out.map((f) => Buffer.from(f.buffer, f.byteOffset, f.byteLength)));
      expect(validFrames(bytes).length).toBe(out.length);
    }
  });
});
