import { describe, expect, it } from 'vitest';
import {
  ChunkedDecoder,
  crc24q,
  encodeFrame,
  filterRecords,
  formatGga,
  parseGga,
  parseRequestHead,
  RequestError,
  RtcmFramer,
  validFrames,
  wildcardMatch,
} from '../src/index.ts';
import { fixture } from './support/client.ts';

describe('CRC-24Q and the RTCM framer', () => {
  it('computes the CRC-24Q check value', () => {
    expect(crc24q(Buffer.from('123456789'))).toBe(0xcde703);
  });

  it('finds the frames an independent scanner counted in the captures', () => {
    expect(validFrames(fixture('oem729_hiroshima_20221213_msm7_alleph.rtcm3'))).toHaveLength(769);
    expect(validFrames(fixture('aamakinen_20260705_msm7_glomsm4.rtcm3'))).toHaveLength(127);
  });

  it('drops the cut frame at the start of a capture and any byte outside valid frames', () => {
    const capture = fixture('oem729_hiroshima_20221213_msm7_alleph.rtcm3');
    const frames = validFrames(capture);
    expect(capture.indexOf(frames[0] as Buffer)).toBe(306);
    const framer = new RtcmFramer(() => {});
    framer.push(capture);
    expect(framer.droppedBytes).toBe(capture.length - frames.reduce((n, f) => n + f.length, 0));
  });

  it('reassembles frames split across any chunk boundary and rejects a corrupted one', () => {
    const a = encodeFrame(Buffer.from([0x3e, 0xd0, 1, 2, 3]));
    const b = encodeFrame(Buffer.alloc(200, 7));
    const bad = Buffer.from(encodeFrame(Buffer.alloc(20, 9)));
    bad[10] = (bad[10] as number) ^ 0xff;
    const stream = Buffer.concat([Buffer.from('junk\xd3'), a, bad, b]);
    for (let split = 1; split < stream.length; split += 13) {
      const got: Buffer[] = [];
      const framer = new RtcmFramer((f) => got.push(Buffer.from(f.data)));
      framer.push(stream.subarray(0, split));
      framer.push(stream.subarray(split));
      expect(got).toEqual([a, b]);
    }
  });

  it('reads the message type and builds the chunked form once', () => {
    const frames: Array<{ type: number; chunked: Buffer }> = [];
    new RtcmFramer((f) => frames.push({ type: f.messageType, chunked: f.chunked })).push(
      encodeFrame(Buffer.from([0x3e, 0xd0, 0, 0])),
    );
    expect(frames[0]?.type).toBe(1005);
    expect(frames[0]?.chunked.toString('latin1').startsWith('a\r\n')).toBe(true);
    expect(frames[0]?.chunked.subarray(-2).toString()).toBe('\r\n');
  });
});

describe('GGA', () => {
  it('reads positions of any talker', () => {
    for (const talker of ['GP', 'GN', 'GL', 'GA', 'GB', 'GQ']) {
      expect(parseGga(formatGga({ latitude: 52.5, longitude: 4.75 }, talker))).toEqual({
        latitude: 52.5,
        longitude: 4.75,
      });
    }

    expect(parseGga('$GPGGA,092750.000,5321.6802,N,00630.3372,W,1,8,1.03,61.7,M,55.2,M,,*76')).toEqual({
      latitude: expect.closeTo(53.36134, 4),
      longitude: expect.closeTo(-6.50562, 4),
    });
    const p = parseGga(formatGga({ latitude: -33.5, longitude: 151.25 }, 'GN'));
    expect(p?.latitude).toBeCloseTo(-33.5, 6);
    expect(p?.longitude).toBeCloseTo(151.25, 6);
  });

  it('formats a position just below a whole degree as the next degree (found by properties.test.ts)', () => {
    const sentence = formatGga({ latitude: 52.99999999, longitude: -4.999999999 });
    expect(sentence).toMatch(/^\$GNGGA,120000\.00,5300\.00000,N,00500\.00000,W,/);
    expect(parseGga(sentence)).toEqual({ latitude: 53, longitude: -5 });
  });

  it('ignores empty, no-fix, other and corrupted sentences', () => {
    expect(parseGga('$GPGGA,,,,,,0,,,,,,,,*66')).toBeNull();
    expect(parseGga(formatGga({ latitude: 52, longitude: 5 }, 'GP', 0))).toBeNull();
    expect(parseGga('$GPRMC,092750.000,A,5321.6802,N,00630.3372,W,0.02,31.66,280511,,,A*43')).toBeNull();
    expect(parseGga('$GPGGA,092750.000,5321.6802,N,00630.3372,W,1,8,1.03,61.7,M,55.2,M,,*00')).toBeNull();
  });
});

describe('request heads', () => {
  it('treats a request as NTRIP 2 only with the Ntrip-Version header', () => {
    expect(parseRequestHead('GET /MP HTTP/1.1\r\nUser-Agent: NTRIP BNC').ntripVersion).toBe(1);
    expect(parseRequestHead('GET /MP HTTP/1.1\r\nNtrip-Version: Ntrip/2.0').ntripVersion).toBe(2);
    expect(parseRequestHead('GET /MP HTTP/1.0').credentials).toBeNull();
  });

  it('reads SOURCE lines with or without the leading slash and proxy-style targets', () => {
    expect(parseRequestHead('SOURCE pw MP1\r\nSource-Agent: NTRIP x')).toMatchObject({
      method: 'SOURCE',
      mountpoint: 'MP1',
      sourcePassword: 'pw',
    });
    expect(parseRequestHead('SOURCE pw /MP1').mountpoint).toBe('MP1');
    expect(parseRequestHead('GET http://caster:2101/MP2 HTTP/1.1').mountpoint).toBe('MP2');
    expect(parseRequestHead('GET /?STR;;;RTCM%203.3 HTTP/1.1').query).toBe('STR;;;RTCM%203.3');
  });

  it('names what is wrong with a bad head', () => {
    expect(() => parseRequestHead('HELLO')).toThrow(RequestError);
    expect(() => parseRequestHead('GET /MP HTTP/1.0\r\nno colon here')).toThrow(/malformed header/);
  });
});

describe('chunked decoding', () => {
  it('decodes chunks split at any byte and rejects bad framing', () => {
    const body = Buffer.from('5\r\nhello\r\n3;ext=1\r\nabc\r\n0\r\n\r\n');
    for (let split = 0; split <= body.length; split++) {
      const out: Buffer[] = [];
      let ended = false;
      const d = new ChunkedDecoder(
        (b) => out.push(Buffer.from(b)),
        () => {
          ended = true;
        },
      );
      d.push(body.subarray(0, split));
      d.push(body.subarray(split));
      expect(Buffer.concat(out).toString()).toBe('helloabc');
      expect(ended).toBe(true);
    }
    expect(() => new ChunkedDecoder(() => {}).push(Buffer.from('zz\r\n'))).toThrow(/bad chunk size/);
    expect(() => new ChunkedDecoder(() => {}).push(Buffer.from('1\r\nab'))).toThrow(/not followed by CRLF/);
  });
});

describe('sourcetable filters', () => {
  const records = [
    ['STR', 'AMS1', 'Amsterdam', 'RTCM 3.3', '', '2', 'GPS+GLO', 'nl', 'NLD', '52.37', '4.90'],
    ['STR', 'BER1', 'Berlin', 'RTCM 3.2', '', '1', 'GPS', 'de', 'DEU', '52.52', '13.40'],
    ['NET', 'nl', 'NL operator'],
  ];
  it('matches text, wildcards, comparisons, negation and alternatives', () => {
    expect(filterRecords(records, 'STR;AMS1').map((r) => r[1])).toEqual(['AMS1']);
    expect(filterRecords(records, 'STR;;;RTCM%203.*').map((r) => r[1])).toEqual(['AMS1', 'BER1']);
    expect(filterRecords(records, 'STR;;;;;;;;;;>10').map((r) => r[1])).toEqual(['BER1']);
    expect(filterRecords(records, 'STR;;;;;;;;!NLD').map((r) => r[1])).toEqual(['BER1']);
    expect(filterRecords(records, 'STR;AMS1|BER1').map((r) => r[1])).toEqual(['AMS1', 'BER1']);
    expect(filterRecords(records, 'NET').map((r) => r[1])).toEqual(['nl']);
    expect(() => filterRecords(records, 'XYZ;1')).toThrow(/must start with STR, CAS or NET/);
  });
  it('matches ~ approximately: contained, ignoring case, spaces and punctuation', () => {
    const mounts = (query: string) => filterRecords(records, query).map((r) => r[1]);
    expect(mounts('STR;;;~rtcm33')).toEqual(['AMS1']);
    expect(mounts('STR;;;~rtcm3')).toEqual(['AMS1', 'BER1']);
    expect(mounts('STR;;~ams')).toEqual(['AMS1']);
    expect(mounts('STR;;;;;;~glo')).toEqual(['AMS1']);
    expect(mounts('STR;;;;;;~GPS.GLO')).toEqual(['AMS1']);
    expect(mounts('STR;;;;;;!~glo')).toEqual(['BER1']);
    expect(mounts('STR;;~amst|~berl')).toEqual(['AMS1', 'BER1']);
    expect(mounts('STR;;~dam&~ams')).toEqual(['AMS1']);
    expect(mounts('STR;;~rotterdam')).toEqual([]);
    // Plain text stays an exact match: only '~' relaxes it.
    expect(mounts('STR;;ams')).toEqual([]);
  });
  it('matches * wildcards as a whole, ignoring case, and an even number of ! cancels out', () => {
    const mounts = (query: string) => filterRecords(records, query).map((r) => r[1]);
    expect(mounts('STR;a*')).toEqual(['AMS1']);
    expect(mounts('STR;*1')).toEqual(['AMS1', 'BER1']);
    expect(mounts('STR;*m*')).toEqual(['AMS1']);
    expect(mounts('STR;;;rtcm 3.?')).toEqual([]);
    expect(mounts('STR;;;RTCM*3')).toEqual(['AMS1']);
    expect(mounts('STR;!!AMS1')).toEqual(['AMS1']);
    expect(mounts('STR;!!!AMS1')).toEqual(['BER1']);
    expect(mounts('STR;;;;;;;;;;;;;;;;;;;;****')).toEqual(['AMS1', 'BER1']);
  });
  it('matches wildcards without backtracking on many stars (issue 16)', () => {
    expect(wildcardMatch('', '')).toBe(true);
    expect(wildcardMatch('*', '')).toBe(true);
    expect(wildcardMatch('', 'a')).toBe(false);
    expect(wildcardMatch('a*b*c', 'axxbyyc')).toBe(true);
    expect(wildcardMatch('a*b*c', 'axxbyyc!')).toBe(false);
    expect(wildcardMatch('*ab*ab', 'abab')).toBe(true);
    expect(wildcardMatch('*aab', 'aaaab')).toBe(true);
    expect(wildcardMatch('.*', 'xyz')).toBe(false);
    // Exponential for a regular expression made of the stars; here a few million steps at most.
    expect(wildcardMatch(`${'*'.repeat(30)}#`, 'a'.repeat(5000))).toBe(false);
    expect(wildcardMatch(`${'*a'.repeat(30)}#`, 'a'.repeat(5000))).toBe(false);
  });
});
