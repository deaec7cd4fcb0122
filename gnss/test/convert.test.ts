/**
 * The conversion as operators and the archive use it: bad input refused with a clear error and no file left behind,
 * the CLI's exit status, streamed input in any chunking and with junk between frames, gzip, the time window, and
 * RINEX 3 long file names.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli.ts';
import {
  ConversionError,
  type ConversionErrorCode,
  type ConvertOptions,
  convertRtcmToRinex,
  fileSource,
  type RtcmSource,
} from '../src/convert.ts';
import { rinexObsFileName, rinexStationId } from '../src/rinex/file-name.ts';
import { addSeconds, calendarToGpst, type GpsTime, parseApproxTime } from '../src/time.ts';
import { validFrames } from '../src/transport.ts';
import { parseRinexObs } from './support/rinex-obs.ts';

const AAMA = fileURLToPath(new URL('./fixtures/aamakinen_20260705_msm7_glomsm4.rtcm3', import.meta.url));
const HIRO = fileURLToPath(new URL('./fixtures/oem729_hiroshima_20221213_msm7_alleph.rtcm3', import.meta.url));
const AAMA_TIME = parseApproxTime('2026-07-05T16:00:00Z') as GpsTime;
const HIRO_TIME = parseApproxTime('2022-12-13T01:09:00Z') as GpsTime;
const FIXED_DATE = new Date(Date.UTC(2026, 0, 1));

let work: string;
let dir: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'convert-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});
let k = 0;
beforeEach(async () => {
  dir = join(work, `case-${k++}`);
  await import('node:fs/promises').then((fs) => fs.mkdir(dir));
});

function bytes(data: Buffer): RtcmSource {
  return async function* () {
    yield data;
  };
}

async function expectRefused(options: Partial<ConvertOptions>, code: ConversionErrorCode, message: RegExp) {
  const attempt = convertRtcmToRinex({
    input: fileSource(AAMA),
    approxTime: AAMA_TIME,
    obsOut: join(dir, 'out.obs'),
    navOut: join(dir, 'out.nav'),
    ...options,
  });
  await expect(attempt).rejects.toBeInstanceOf(ConversionError);
  await expect(attempt).rejects.toMatchObject({ code, message: expect.stringMatching(message) });
  expect(await readdir(dir)).toEqual([]);
}

describe('bad input is refused with a clear error and leaves no file', () => {
  it('not RTCM', async () => {
    await expectRefused(
      { input: bytes(Buffer.from('GPGGA,123519,4807.038,N,01131.000,E\r\n'.repeat(200))) },
      'not_rtcm',
      /not RTCM 3/,
    );
  });

  it('an empty input', async () => {
    await expectRefused({ input: bytes(Buffer.alloc(0)) }, 'not_rtcm', /empty/);
  });

  it('truncated inside its first frame', async () => {
    const capture = await readFile(AAMA);
    await expectRefused({ input: bytes(capture.subarray(0, 120)) }, 'truncated', /truncated/);
  });

  it('every frame failing its CRC', async () => {
    const damaged = Buffer.concat(
      validFrames(await readFile(AAMA)).map((f) => {
        const copy = Buffer.from(f);
        copy[copy.length - 1] = (copy[copy.length - 1] as number) ^ 0x5a;
        return copy;
      }),
    );
    await expectRefused({ input: bytes(damaged) }, 'crc_mismatch', /CRC-24Q/);
  });

  it('RTCM without observations', async () => {
    const stationOnly = Buffer.concat(validFrames(await readFile(AAMA)).filter((f) => f.length < 40));
    expect(stationOnly.length).toBeGreaterThan(0);
    await expectRefused({ input: bytes(stationOnly), navOut: undefined }, 'no_observations', /no observation epoch/);
  });

  it('a window with no data', async () => {
    const start = addSeconds(AAMA_TIME, 3 * 3600);
    await expectRefused({ window: { start, end: addSeconds(start, 3600) } }, 'no_data_in_window', /window/);
  });

  it('a constellation the stream does not carry', async () => {
    await expectRefused({ systems: 'J' }, 'no_data_in_window', /constellations/);
  });

  it('an interval other than 1, 5, 15, 30 s and an unknown constellation letter', async () => {
    await expectRefused({ interval: 10 }, 'bad_option', /1, 5, 15, 30/);
    await expectRefused({ systems: 'GX' }, 'bad_option', /"X"/);
  });

  it('navigation only, from a capture without ephemerides', async () => {
    await expectRefused({ obsOut: undefined }, 'no_data_in_window', /no ephemeris/);
  });

  it('a failure keeps an existing file as it was', async () => {
    const out = join(dir, 'kept.obs');
    await writeFile(out, 'previous hour\n');
    await expect(
      convertRtcmToRinex({ input: bytes(Buffer.from('junk')), approxTime: AAMA_TIME, obsOut: out }),
    ).rejects.toBeInstanceOf(ConversionError);
    expect(await readFile(out, 'utf8')).toBe('previous hour\n');
    expect(await readdir(dir)).toEqual(['kept.obs']);
  });

  it('an input that fails while being read removes the half-written file', async () => {
    const capture = await readFile(HIRO);
    let pass = 0;
    const flaky: RtcmSource = async function* () {
      pass++;
      yield capture.subarray(0, 80_000);
      if (pass === 2) throw Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO', path: 'x' });
      yield capture.subarray(80_000);
    };
    await expect(
      convertRtcmToRinex({ input: flaky, approxTime: HIRO_TIME, obsOut: join(dir, 'o.obs') }),
    ).rejects.toThrow(/EIO/);
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('CLI', () => {
  async function cli(args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const status = await runCli(
      args,
      (l) => out.push(l),
      (l) => err.push(l),
    );
    return { status, out: out.join('\n'), err: err.join('\n') };
  }

  it('converts, reporting the epochs written', async () => {
    const obs = join(dir, 'a.obs');
    const r = await cli(['convert', AAMA, '--time', '2026-07-05T16:00:00Z', '--obs', obs, '--interval', '5']);
    expect(r).toMatchObject({ status: 0, err: '' });
    expect(r.out).toMatch(/a\.obs: 4 epochs, 2026-07-05 16:38:25\.001 GPST to 2026-07-05 16:38:40\.001 GPST/);
    expect(parseRinexObs(await readFile(obs, 'latin1')).epochs.size).toBe(4);
  });

  it('exits 1 with the reason for input it cannot convert, and writes nothing', async () => {
    const notRtcm = join(dir, 'notes.txt');
    await writeFile(notRtcm, 'not a GNSS stream\n');
    const r = await cli(['convert', notRtcm, '--time', '2026-07-05T16:00:00Z', '--obs', join(dir, 'x.obs')]);
    expect(r.status).toBe(1);
    expect(r.err).toMatch(/^rinex: no RTCM 3 frame in 18 bytes of input: it is not RTCM 3$/);
    expect(await readdir(dir)).toEqual(['notes.txt']);
    const missing = await cli([
      'convert',
      join(dir, 'none.rtcm3'),
      '--time',
      '2026-07-05T16:00:00Z',
      '--obs',
      join(dir, 'y.obs'),
    ]);
    expect(missing.status).toBe(1);
    expect(missing.err).toMatch(/ENOENT/);
    expect(await readdir(dir)).toEqual(['notes.txt']);
  });

  it('exits 2 with the usage for a missing --time, a bad time, interval or option', async () => {
    for (const args of [
      ['convert', AAMA, '--obs', join(dir, 'x.obs')],
      ['convert', AAMA, '--time', 'yesterday', '--obs', join(dir, 'x.obs')],
      ['convert', AAMA, '--time', '2026-07-05T16:00:00Z', '--obs', join(dir, 'x.obs'), '--interval', '2'],
      ['convert', AAMA, '--time', '2026-07-05T16:00:00Z'],
      ['convert', AAMA, '--time', '2026-07-05T16:00:00Z', '--obs', join(dir, 'x.obs'), '--bogus'],
      ['archive'],
    ]) {
      const r = await cli(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.err).toMatch(/usage: rinex convert/);
    }
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('streaming', () => {
  async function convertTo(input: RtcmSource, out: string, options: Partial<ConvertOptions> = {}) {
    return convertRtcmToRinex({ input, approxTime: HIRO_TIME, obsOut: out, createdAt: FIXED_DATE, ...options });
  }

  it('gives the same file whatever the chunking, with junk between frames', async () => {
    const capture = await readFile(HIRO);
    const clean = join(dir, 'clean.obs');
    await convertTo(fileSource(HIRO), clean);
    const frames = validFrames(capture);
    const noisy = Buffer.concat([
      capture.subarray(0, 306),
      ...frames.flatMap((f, i) => [f, Buffer.from(i % 3 ? [0xd3, 0x00] : [0x24, 0x47, 0x50, 0xd3, 0x01, 0xff])]),
    ]);
    const dropped: number[] = [];
    // Chunks shorter than a frame, and chunks longer than the longest frame (1,029 bytes) with frames cut at their
    // edges: the framer joins held-back bytes to the next chunk differently for the two.
    for (const largest of [700, 5000]) {
      let seed = 7;
      const chunked: RtcmSource = async function* () {
        for (let at = 0; at < noisy.length; ) {
          seed = (seed * 1103515245 + 12345) % 2 ** 31;
          const size = 1 + (seed % largest);
          yield noisy.subarray(at, at + size);
          at += size;
        }
      };
      const out = join(dir, `noisy-${largest}.obs`);
      const result = await convertTo(chunked, out);
      dropped.push(result.droppedBytes);
      expect(await readFile(out, 'latin1')).toBe(await readFile(clean, 'latin1'));
    }
    expect(dropped[0]).toBeGreaterThan(306);
    expect(dropped[1]).toBe(dropped[0]);
  });

  it('writes gzip when asked, the same text inside', async () => {
    await convertTo(fileSource(HIRO), join(dir, 'plain.obs'));
    await convertTo(fileSource(HIRO), join(dir, 'packed.obs.gz'));
    const packed = await readFile(join(dir, 'packed.obs.gz'));
    expect(packed.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    expect(gunzipSync(packed).toString('latin1')).toBe(await readFile(join(dir, 'plain.obs'), 'latin1'));
  });

  it('keeps epochs from the window start (inclusive) to its end (exclusive)', async () => {
    const start = calendarToGpst({ year: 2022, month: 12, day: 13, hour: 1, minute: 9, second: 40 });
    const out = join(dir, 'window.obs');
    const result = await convertTo(fileSource(HIRO), out, { window: { start, end: addSeconds(start, 10) } });
    const keys = [...parseRinexObs(await readFile(out, 'latin1')).epochs.keys()];
    expect(keys[0]).toBe('2022 12 13 01 09 40.0000000');
    expect(keys.at(-1)).toBe('2022 12 13 01 09 49.0000000');
    expect(result.epochs).toBe(10);
  });

  it('writes the navigation file beside the observations', async () => {
    const nav = join(dir, 'h.nav');
    const result = await convertTo(fileSource(HIRO), join(dir, 'h.obs'), { navOut: nav, systems: 'GREC' });
    expect(result.navRecords).toBeGreaterThan(0);
    const text = await readFile(nav, 'latin1');
    expect(text).toMatch(/N: GNSS NAV DATA/);
    const records = text.split('END OF HEADER')[1]?.match(/^[GREC]\d\d /gm) ?? [];
    expect(records).toHaveLength(result.navRecords);
    expect(existsSync(join(dir, 'h.obs'))).toBe(true);
  });
});

describe('RINEX 3 long file names', () => {
  it('names an hour of 1 s mixed observations and navigation from a station', () => {
    const start = new Date(Date.UTC(2026, 6, 5, 16));
    expect(rinexObsFileName({ station: 'amak', country: 'FIN', start, period: 3600, interval: 1, kind: 'O' })).toBe(
      'AMAK00FIN_R_20261861600_01H_01S_MO.rnx',
    );
    expect(rinexObsFileName({ station: 'AMAK00FIN', start, period: 3600, kind: 'N', systems: ['G'], gzip: true })).toBe(
      'AMAK00FIN_R_20261861600_01H_GN.rnx.gz',
    );
    expect(rinexObsFileName({ station: '../x', start, period: 86_400, interval: 30, kind: 'O' })).toBe(
      'XXXX00XXX_R_20261861600_01D_30S_MO.rnx',
    );
  });

  it("takes the station's own 9-character ID from a mountpoint with a stream digit", () => {
    const start = new Date(Date.UTC(2026, 6, 5, 16));
    expect(rinexObsFileName({ station: 'ZWOL03NLD0', country: 'NLD', start, period: 3600, kind: 'N' })).toBe(
      'ZWOL03NLD_R_20261861600_01H_MN.rnx',
    );
    expect(rinexStationId('zwol00nld0', 'NLD')).toBe('ZWOL00NLD');
    expect(rinexStationId('DELFT-RTK', 'NLD')).toBe('DELF00NLD');
  });
});
