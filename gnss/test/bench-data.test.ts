/**
 * The input `npm run bench:rinex` converts: the Hiroshima capture repeated with its times moved on. A few copies
 * are checked here so the bench keeps measuring valid data: every frame passes its CRC, the epochs continue second
 * by second, ephemerides move by whole hours with a new issue of data, and convbin and our converter read the
 * result alike.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repeatCapture } from '../bench/repeat-capture.ts';
import { convertRtcmToRinex, fileSource } from '../src/convert.ts';
import { decodeEphemeris, EPHEMERIS_MESSAGE_TYPES } from '../src/nav/index.ts';
import type { Ephemeris } from '../src/nav/types.ts';
import { addSeconds, diffSeconds, type GpsTime, parseApproxTime } from '../src/time.ts';
import { frameMessageType, RtcmFramer, validFrames } from '../src/transport.ts';
import {
  compareObs,
  convbin,
  lliMatches,
  parseRinexObs,
  shiftKey,
  withoutFirstObservationLli,
} from './support/rinex-obs.ts';

const HIRO = fileURLToPath(new URL('./fixtures/oem729_hiroshima_20221213_msm7_alleph.rtcm3', import.meta.url));
const TIME = '2022/12/13 01:09:00';
const approx = parseApproxTime(TIME) as GpsTime;

let work: string;
let capture: Buffer;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'bench-data-'));
  capture = await readFile(HIRO);
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function generate(name: string, copies: number, period: number): Promise<string> {
  const path = join(work, name);
  await writeFile(path, Buffer.concat([...repeatCapture(capture, { copies, period })]));
  return path;
}

/** Records of a navigation file as "satellite epoch" (the first 23 columns), in file order. */
function navRecords(text: string): string[] {
  const body = text.slice(text.indexOf('END OF HEADER'));
  return (body.match(/^[GRECJIS]\d\d \d{4} .{14}/gm) ?? []).map((r) => r.trimEnd());
}

describe('bench data: a capture repeated with moved times', () => {
  it('two one-minute copies: valid frames, epochs continuing each second, read alike by convbin and by us', async () => {
    const input = await generate('two-minutes.rtcm3', 2, 60);
    const bytes = await readFile(input);
    const framer = new RtcmFramer(() => {});
    framer.push(bytes);
    framer.end();
    expect(validFrames(bytes)).toHaveLength(2 * validFrames(capture).length);
    expect(framer.droppedBytes).toBe(0);
    expect(framer.crcFailures).toBe(0);

    const obs = join(work, 'ours.obs');
    const nav = join(work, 'ours.nav');
    await convertRtcmToRinex({ input: fileSource(input), approxTime: approx, obsOut: obs, navOut: nav });
    const mine = parseRinexObs(await readFile(obs, 'latin1'));
    const keys = [...mine.epochs.keys()];
    expect(keys).toHaveLength(120);
    expect(keys[0]).toBe('2022 12 13 01 09 22.0000000');
    keys.slice(1).forEach((k, i) => {
      expect(k).toBe(shiftKey(keys[i] as string, 1));
    });

    const theirs = await convbin(input, TIME, ['-n', join(work, 'convbin.nav')]);
    expect([...theirs.epochs.keys()]).toEqual(keys);
    const { differences, compared } = compareObs(mine, theirs, { tolerance: 0.0015, lliMatches });
    expect(withoutFirstObservationLli(differences, mine)).toEqual([]);
    expect(compared).toBeGreaterThan(2 * 40_000);
    // Within the first hour the ephemerides repeat unchanged: both write the capture's set once.
    const ourNav = navRecords(await readFile(nav, 'latin1'));
    expect(ourNav).toHaveLength(65);
    expect(navRecords(await readFile(join(work, 'convbin.nav'), 'latin1'))).toEqual(ourNav);
  });

  it('copies ten hours apart: every ephemeris moves by whole hours with a new issue, across the GLONASS day', async () => {
    const copies = [...repeatCapture(capture, { copies: 3, period: 36_000 })];
    // Each copy decoded with the receiver's time of that copy, as a converter reading the whole file would.
    const ephemerides = copies.map((copy, k) => {
      const received = addSeconds(approx, k * 36_000);
      return validFrames(copy)
        .filter((frame) => EPHEMERIS_MESSAGE_TYPES.has(frameMessageType(frame)))
        .map((frame) => decodeEphemeris(frame, received) as Ephemeris);
    });
    const original = ephemerides[0] as Ephemeris[];
    expect(new Set(original.map((e) => e.messageType)).size).toBe(7);
    for (const k of [1, 2]) {
      const hours = 10 * k;
      const moved = ephemerides[k] as Ephemeris[];
      expect(moved).toHaveLength(original.length);
      moved.forEach((eph, i) => {
        const before = original[i] as Ephemeris;
        // GLONASS's toe at +20 h is past midnight in Moscow: tb wraps and the day moves on.
        expect(diffSeconds(eph.toe, before.toe), `${eph.system}${eph.prn} toe`).toBe(hours * 3600);
        // BeiDou's issues are told apart by toe, GLONASS's by tb; the others count their issue of data up.
        if (eph.system === 'R' || before.system === 'R' || eph.system === 'C') return;
        expect((eph.iode - before.iode + 1024) % 256, `${eph.system}${eph.prn} IOD`).toBe(hours);
      });
    }

    const input = join(work, 'ten-hours.rtcm3');
    await writeFile(input, Buffer.concat(copies));
    const nav = join(work, 'ten-hours.nav');
    const cnav = join(work, 'ten-hours-convbin.nav');
    const result = await convertRtcmToRinex({ input: fileSource(input), approxTime: approx, navOut: nav });
    expect(result.navRecords).toBe(3 * 65);
    await convbin(input, TIME, ['-n', cnav]);
    const ourNav = navRecords(await readFile(nav, 'latin1'));
    expect(navRecords(await readFile(cnav, 'latin1'))).toEqual(ourNav);
  });
});
