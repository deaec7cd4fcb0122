import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  encodeFrame,
  frameMessageType,
  getBitS,
  getBitSignMagnitude,
  getBitU,
  RtcmFramer,
  validFrames,
} from '../src/index.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

describe('RTCM 3 transport', () => {
  it('finds every valid frame of the captures, skipping the cut frames at their start and end', () => {
    expect(validFrames(fixture('oem729_hiroshima_20221213_msm7_alleph.rtcm3'))).toHaveLength(769);
    expect(validFrames(fixture('GMSD7_20121014_netr9_msm7_weekrollover.rtcm3'))).toHaveLength(1143);
    expect(validFrames(fixture('aamakinen_20260705_msm7_glomsm4.rtcm3'))).toHaveLength(127);
  });

  it('holds back a frame cut at the end of the input and counts junk between frames', () => {
    const framer = new RtcmFramer(() => {});
    const capture = fixture('GMSD7_20121014_netr9_msm7_weekrollover.rtcm3');
    framer.push(capture);
    expect(framer.pendingBytes).toBe(302);
    const seen: number[] = [];
    const second = new RtcmFramer((f) => seen.push(frameMessageType(f)));
    second.push(
      Buffer.concat([Buffer.from('junk'), encodeFrame(Buffer.from([0x3e, 0xd0, 1])), Buffer.from([0xd3, 0xff])]),
    );
    second.push(encodeFrame(Buffer.from([0x43, 0x50])));
    expect(seen).toEqual([1005, 1077]);
    expect(second.droppedBytes).toBe(6);
  });
});

describe('end of input', () => {
  it('recovers frames hidden behind a false preamble whose length runs past the end', () => {
    const seen: number[] = [];
    const framer = new RtcmFramer((f) => seen.push(frameMessageType(f)));
    // 0xD3 0x01 0xFF announces a 511-byte payload; only a short frame follows before the input ends.
    framer.push(Buffer.concat([Buffer.from([0xd3, 0x01, 0xff]), encodeFrame(Buffer.from([0x3e, 0xd0, 1]))]));
    expect(seen).toEqual([]);
    framer.end();
    expect(seen).toEqual([1005]);
    expect(framer.pendingBytes).toBe(0);
    expect(framer.droppedBytes).toBe(3);
  });
});

describe('bit fields', () => {
  const buf = Uint8Array.from([0b1011_0000, 0xff, 0xff, 0xff, 0xff, 0xff, 0b1100_0000]);
  it('reads unsigned, two’s-complement and sign-magnitude fields across byte edges', () => {
    expect(getBitU(buf, 0, 4)).toBe(0b1011);
    expect(getBitS(buf, 0, 4)).toBe(-5);
    expect(getBitSignMagnitude(buf, 0, 4)).toBe(-3);
    expect(getBitU(buf, 8, 42)).toBe(2 ** 42 - 1);
    expect(getBitS(buf, 8, 42)).toBe(-1);
  });
});
