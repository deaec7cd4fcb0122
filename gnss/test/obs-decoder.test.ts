/**
 * Epoch assembly by the multiple-message bit and the BeiDou time-tag detection, on the captures' own frames with
 * single fields changed (and the CRC recomputed by re-framing).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getBitU } from '../src/bits.ts';
import { ObservationDecoder } from '../src/obs/decoder.ts';
import type { ObservationEpoch } from '../src/obs/types.ts';
import { diffSeconds, type GpsTime, parseApproxTime } from '../src/time.ts';
import { frameMessageType, framePayload, validFrames } from '../src/transport.ts';

const frames = (name: string) => validFrames(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));

function setBits(buf: Uint8Array, pos: number, len: number, value: number): void {
  for (let i = 0; i < len; i++) {
    const bit = Math.floor(value / 2 ** (len - 1 - i)) % 2;
    const at = pos + i;
    const mask = 1 << (7 - (at & 7));
    buf[at >> 3] = bit ? (buf[at >> 3] as number) | mask : (buf[at >> 3] as number) & ~mask;
  }
}

/** MSM header bit 54 (after message number, station ID and the 30-bit epoch time) is the multiple-message bit. */
function withSync(payload: Buffer, sync: 0 | 1): Buffer {
  const copy = Buffer.from(payload);
  setBits(copy, 54, 1, sync);
  return copy;
}

function decodeAll(payloads: Buffer[], approx: string): { epochs: ObservationEpoch[]; decoder: ObservationDecoder } {
  const epochs: ObservationEpoch[] = [];
  const decoder = new ObservationDecoder({ approxTime: parseApproxTime(approx) as GpsTime }, (e) => epochs.push(e));
  for (const p of payloads) decoder.decode(p);
  decoder.end();
  return { epochs, decoder };
}

const systems = (e: ObservationEpoch) => [...new Set(e.satellites.map((s) => s.sys))].sort().join('');

describe('epoch assembly', () => {
  const msm = frames('aamakinen_20260705_msm7_glomsm4.rtcm3')
    .filter((f) => frameMessageType(f) >= 1071 && frameMessageType(f) <= 1137)
    .map(framePayload);

  it('an MSM without satellites but with the multiple-message bit clear still closes the epoch', () => {
    const [gps, glo, gal, bds] = msm as [Buffer, Buffer, Buffer, Buffer];
    expect([gps, glo, gal, bds].map((p) => getBitU(p, 0, 12))).toEqual([1077, 1084, 1097, 1127]);
    // A BeiDou MSM7 with the same epoch time, no satellite and no signal: 169 bits of header.
    const empty = Buffer.alloc(22);
    bds.copy(empty, 0, 0, 8);
    setBits(empty, 54, 115, 0);
    const { epochs } = decodeAll([gps, glo, gal, empty], '2026/07/05 16:00:00');
    expect(epochs).toHaveLength(1);
    expect(systems(epochs[0] as ObservationEpoch)).toBe('EGR');
  });

  it('an epoch is only written once its last message arrives; a new epoch time drops the unfinished one', () => {
    const firstEpoch = msm.slice(0, 4);
    const { epochs: whole } = decodeAll(firstEpoch, '2026/07/05 16:00:00');
    expect(whole).toHaveLength(1);
    const { epochs, decoder } = decodeAll([...firstEpoch.slice(0, 3), ...msm.slice(4, 8)], '2026/07/05 16:00:00');
    expect(epochs).toHaveLength(1);
    expect(diffSeconds((epochs[0] as ObservationEpoch).time, (whole[0] as ObservationEpoch).time)).toBe(1);
    expect(decoder.stats.incompleteEpochs).toBe(1);
  });
});

describe('BeiDou MSM tagged in GPST (GMSD7, Trimble NETR9)', () => {
  const msm = frames('GMSD7_20121014_netr9_msm7_weekrollover.rtcm3')
    .filter((f) => frameMessageType(f) >= 1071 && frameMessageType(f) <= 1137)
    .map(framePayload);
  const types = msm.slice(0, 4).map((p) => getBitU(p, 0, 12));

  it('is recognised when BeiDou closes the epoch, and every system lands on the same epoch', () => {
    expect(types).toEqual([1077, 1087, 1117, 1127]);
    const { epochs, decoder } = decodeAll(msm.slice(0, 40), '2012/10/13 23:59:00');
    expect(decoder.stats.beidouTaggedGpst).toBe(true);
    expect(epochs).toHaveLength(10);
    for (const e of epochs) expect(systems(e)).toBe('CGJR');
  });

  it('is recognised when BeiDou opens the epoch', () => {
    const reordered: Buffer[] = [];
    for (let k = 0; k < 40; k += 4) {
      const [gps, glo, qzs, bds] = msm.slice(k, k + 4) as [Buffer, Buffer, Buffer, Buffer];
      reordered.push(withSync(bds, 1), gps, glo, withSync(qzs, 0));
    }
    const { epochs, decoder } = decodeAll(reordered, '2012/10/13 23:59:00');
    expect(decoder.stats.beidouTaggedGpst).toBe(true);
    expect(epochs).toHaveLength(10);
    for (const e of epochs) expect(systems(e)).toBe('CGJR');
  });

  it("beidouTime 'bdt' keeps RTCM's reading: BeiDou 14 s late in an epoch of its own, the others dropped", () => {
    const out: ObservationEpoch[] = [];
    const decoder = new ObservationDecoder(
      { approxTime: parseApproxTime('2012/10/13 23:59:00') as GpsTime, beidouTime: 'bdt' },
      (e) => out.push(e),
    );
    for (const p of msm.slice(0, 40)) decoder.decode(p);
    expect(out.map(systems)).toEqual(Array(10).fill('C'));
    expect(decoder.stats.beidouTaggedGpst).toBe(false);
  });
});
