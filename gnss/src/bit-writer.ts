/**
 * Sequential big-endian bit writer, the counterpart of obs/bit-reader.ts: RTCM 3 payloads are built field by field
 * and framed by transport.ts's encodeFrame. Fields are at most 53 bits (a double's exact integers), which covers every
 * RTCM 3 field the encoder writes (the longest are the 30-bit epoch times).
 */
import { getBitU } from './bits.ts';

export class BitWriter {
  private buf: Uint8Array;
  pos = 0;

  /** `capacity` in bytes; the longest RTCM 3 payload is 1023 bytes. */
  constructor(capacity = 1023) {
    this.buf = new Uint8Array(capacity);
  }

  /** Unsigned field; `value` must lie in [0, 2^len). */
  u(len: number, value: number): void {
    if (!Number.isInteger(value) || value < 0 || value >= 2 ** len) {
      throw new RangeError(`${value} does not fit an unsigned field of ${len} bits`);
    }
    this.put(len, value);
  }

  /** Two's-complement field; `value` must lie in [-2^(len-1), 2^(len-1)). */
  s(len: number, value: number): void {
    if (!Number.isInteger(value) || value < -(2 ** (len - 1)) || value >= 2 ** (len - 1)) {
      throw new RangeError(`${value} does not fit a signed field of ${len} bits`);
    }
    this.put(len, value < 0 ? value + 2 ** len : value);
  }

  /** An 8-bit count and that many characters (DF029 descriptors and the 1033 strings); the caller bounds it. */
  text(value: string): void {
    this.u(8, value.length);
    for (let i = 0; i < value.length; i++) this.u(8, value.charCodeAt(i));
  }

  /** Copies `len` bits of `src` from bit `from` (header fields and masks passed through unchanged). */
  copy(src: Uint8Array, from: number, len: number): void {
    for (let done = 0; done < len; done += 24) {
      const take = Math.min(24, len - done);
      this.put(take, getBitU(src, from + done, take));
    }
  }

  private put(len: number, value: number): void {
    const need = (this.pos + len + 7) >> 3;
    if (need > this.buf.length) {
      const grown = new Uint8Array(Math.max(need, this.buf.length * 2));
      grown.set(this.buf);
      this.buf = grown;
    }
    // High bits first, at most one byte's worth at a time: 32-bit shifts for the short fields of the hot path,
    // exact division for the rare longer ones.
    const short = len <= 32;
    let left = len;
    while (left > 0) {
      const offset = this.pos & 7;
      const take = Math.min(8 - offset, left);
      const chunk = short
        ? (value >>> (left - take)) & ((1 << take) - 1)
        : Math.floor(value / 2 ** (left - take)) % 2 ** take;
      const index = this.pos >> 3;
      this.buf[index] = (this.buf[index] as number) | (chunk << (8 - offset - take));
      this.pos += take;
      left -= take;
    }
  }

  /** The payload written so far, padded with zero bits to whole bytes (RTCM 3 pads the same way). */
  bytes(): Uint8Array {
    return this.buf.slice(0, (this.pos + 7) >> 3);
  }
}
