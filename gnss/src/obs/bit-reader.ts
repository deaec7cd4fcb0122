/**
 * Sequential big-endian bit reader for the hot path (MSM cells are read field by field, a million times an hour).
 * Reads whole bytes where it can instead of one bit at a time; fields are at most 32 bits here.
 */
export class BitReader {
  pos: number;

  constructor(
    private readonly buf: Uint8Array,
    start = 0,
  ) {
    this.pos = start;
  }

  /** Bits left before the end of the payload. */
  get remaining(): number {
    return this.buf.length * 8 - this.pos;
  }

  u(len: number): number {
    const pos0 = this.pos;
    const offset0 = pos0 & 7;
    if (offset0 + len <= 32) {
      // Fast path: the field lies within four bytes (every MSM cell field does).
      const b = pos0 >> 3;
      const buf = this.buf;
      const word =
        (((buf[b] ?? 0) << 24) | ((buf[b + 1] ?? 0) << 16) | ((buf[b + 2] ?? 0) << 8) | (buf[b + 3] ?? 0)) >>> 0;
      this.pos = pos0 + len;
      return len === 0 ? 0 : ((word << offset0) >>> 0) >>> (32 - len);
    }
    let value = 0;
    let pos = this.pos;
    let left = len;
    while (left > 0) {
      const byte = this.buf[pos >> 3] as number;
      const offset = pos & 7;
      const take = Math.min(8 - offset, left);
      const bits = (byte >> (8 - offset - take)) & ((1 << take) - 1);
      value = value * (1 << take) + bits;
      pos += take;
      left -= take;
    }
    this.pos = pos;
    return value;
  }

  /** Two's-complement field; up to 32 bits by a sign-extending shift (the MSM cells), longer ones by arithmetic. */
  s(len: number): number {
    const value = this.u(len);
    if (len <= 32) return (value << (32 - len)) >> (32 - len);
    return value >= 2 ** (len - 1) ? value - 2 ** len : value;
  }

  skip(len: number): void {
    this.pos += len;
  }

  /** A counted string of bytes (antenna and receiver descriptors). */
  text(count: number): string {
    let out = '';
    for (let i = 0; i < count; i++) out += String.fromCharCode(this.u(8));
    return out;
  }
}
