import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  encodeFrame,
  filterRecords,
  formatGga,
  MAX_FRAME,
  parseGga,
  parseRequestHead,
  RequestError,
  RtcmFramer,
  wildcardMatch,
} from '../src/index.ts';

// Each property stops after its runs or its time limit, whichever comes first, so `npm test` stays short.
const bounded = { numRuns: 300, interruptAfterTimeLimit: 2_000 };

describe('NTRIP request parser (properties)', () => {
  it('answers arbitrary bytes with a request or a RequestError, never another exception', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => {
        try {
          parseRequestHead(Buffer.from(bytes).toString('latin1'));
        } catch (error) {
          expect(error).toBeInstanceOf(RequestError);
        }
      }),
      bounded,
    );
  });

  const token = fc.stringMatching(/^[A-Za-z0-9_-]{1,20}$/);
  it('reads back the mountpoint, query, version and credentials of a well-formed rover request', () => {
    fc.assert(
      fc.property(
        token,
        fc.option(fc.stringMatching(/^[A-Za-z0-9;%*~!|&.]{0,30}$/)),
        fc.boolean(),
        fc.option(fc.record({ username: token, password: fc.stringMatching(/^[\x21-\x7e]{0,20}$/) })),
        (mountpoint, query, v2, credentials) => {
          const lines = [`GET /${mountpoint}${query === null ? '' : `?${query}`} HTTP/1.1`, 'User-Agent: NTRIP prop'];
          if (v2) lines.push('Ntrip-Version: Ntrip/2.0');
          if (credentials) {
            const basic = Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64');
            lines.push(`Authorization: Basic ${basic}`);
          }
          const request = parseRequestHead(lines.join('\r\n'));
          expect(request.method).toBe('GET');
          expect(request.mountpoint).toBe(mountpoint);
          expect(request.query).toBe(query);
          expect(request.ntripVersion).toBe(v2 ? 2 : 1);
          expect(request.credentials).toEqual(credentials);
        },
      ),
      bounded,
    );
  });
});

/** Tries every way of covering the text, exponential, but only ever given a few characters here. */
function referenceMatch(pattern: string, text: string): boolean {
  if (pattern === '') return text === '';
  if (pattern[0] === '*') {
    for (let i = 0; i <= text.length; i++) if (referenceMatch(pattern.slice(1), text.slice(i))) return true;
    return false;
  }
  return text !== '' && pattern[0] === text[0] && referenceMatch(pattern.slice(1), text.slice(1));
}

describe('sourcetable filter (properties)', () => {
  const small = (chars: string, maxLength: number) =>
    fc.array(fc.constantFrom(...chars.split('')), { maxLength }).map((a) => a.join(''));

  it('matches * wildcards as trying every covering would', () => {
    fc.assert(
      fc.property(small('ab*', 8), small('ab', 10), (pattern, text) => {
        expect(wildcardMatch(pattern, text)).toBe(referenceMatch(pattern, text));
      }),
      { ...bounded, numRuns: 2_000 },
    );
  });

  it('filters a mountpoint field case-insensitively as the reference does, whatever the filter text', () => {
    fc.assert(
      fc.property(small('aB*', 6), small('AbX', 8), (pattern, mountpoint) => {
        const kept = filterRecords([['STR', mountpoint]], `STR;${pattern}`).length === 1;
        const expected = pattern === '' || referenceMatch(pattern.toLowerCase(), mountpoint.toLowerCase());
        expect(kept).toBe(expected);
      }),
      { ...bounded, numRuns: 1_000 },
    );
  });

  it('answers any filter text with records or a FilterError', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (query) => {
        try {
          filterRecords([['STR', 'AMS1', 'Amsterdam', 'RTCM 3.3', '1005(10)', '2']], query);
        } catch (error) {
          expect((error as Error).constructor.name).toBe('FilterError');
        }
      }),
      bounded,
    );
  });
});

describe('RTCM3 framer (properties)', () => {
  const frame = fc.uint8Array({ minLength: 2, maxLength: 200 }).map((payload) => encodeFrame(payload));
  it('recovers every valid frame, in order, from garbage between them and any chunking', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.uint8Array({ maxLength: 40 }), frame), { maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 20 }),
        (pieces, cuts) => {
          // The stream goes on after the last frame: a garbage header may announce up to MAX_FRAME bytes, which
          // the framer has to see before it can give up on it and find the frame inside.
          const tail = Buffer.alloc(MAX_FRAME);
          const stream = Buffer.concat([...pieces.flatMap(([garbage, f]) => [Buffer.from(garbage), f]), tail]);
          const out: Buffer[] = [];
          const framer = new RtcmFramer((f) => out.push(Buffer.from(f.data)));
          let at = 0;
          for (let c = 0; at < stream.length; c++) {
            const size = cuts[c % cuts.length] as number;
            framer.push(stream.subarray(at, at + size));
            at += size;
          }
          const expected = pieces.map(([, f]) => f.toString('hex'));
          // Garbage makes a frame with a valid CRC-24Q about once in 16 million tries: allow extras, never a loss.
          let next = 0;
          for (const f of out) if (f.toString('hex') === expected[next]) next++;
          expect(next).toBe(expected.length);
        },
      ),
      { ...bounded, numRuns: 200 },
    );
  });
});

describe('GGA parser (properties)', () => {
  it('answers any text with a position or null, never an exception', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 100 }),
          fc.string({ maxLength: 80 }).map((s) => `$GNGGA,${s}`),
        ),
        (line) => {
          const position = parseGga(line);
          if (position) {
            expect(Math.abs(position.latitude)).toBeLessThanOrEqual(90);
            expect(Math.abs(position.longitude)).toBeLessThanOrEqual(180);
          }
        },
      ),
      bounded,
    );
  });

  it('reads back the position of a generated sentence to within its 0.00001 minute', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -89.9, max: 89.9, noNaN: true }),
        fc.double({ min: -179.9, max: 179.9, noNaN: true }),
        fc.constantFrom('GP' as const, 'GN' as const),
        (latitude, longitude, talker) => {
          const position = parseGga(formatGga({ latitude, longitude }, talker));
          expect(position).not.toBeNull();
          expect(Math.abs((position?.latitude ?? 0) - latitude)).toBeLessThan(1e-6);
          expect(Math.abs((position?.longitude ?? 0) - longitude)).toBeLessThan(1e-6);
        },
      ),
      // Just below a whole degree the minutes round up to 60.00000, which no receiver sends.
      { ...bounded, examples: [[52.99999999, -4.999999999, 'GN']] },
    );
  });
});
