/**
 * Big-endian bit fields as RTCM 3 packs them. Positions are bit offsets from the start of the payload. Fields up
 * 53 bits come back exact (a double's mantissa), which covers the 38-bit coordinates of 1005/1006.
 */
export function getBitU(buf: Uint8Array, pos: number, len: number): number {
  // Whole bytes at a time: the first byte's low bits, then full bytes, then the last byte's high bits.
  let value = 0;
  let at = pos;
  let left = len;
  while (left > 0) {
    const offset = at & 7;
    const take = Math.min(8 - offset, left);
    const byte = (buf[at >> 3] as number) >> (8 - offset - take);
    value = value * (1 << take) + (byte & ((1 << take) - 1));
    at += take;
    left -= take;
  }
  return value;
}

/** Two's-complement signed field of up to 53 bits. */
export function getBitS(buf: Uint8Array, pos: number, len: number): number {
  const value = getBitU(buf, pos, len);
  return value >= 2 ** (len - 1) ? value - 2 ** len : value;
}

/** Sign-magnitude field (GLONASS ephemerides): the first bit is the sign. */
export function getBitSignMagnitude(buf: Uint8Array, pos: number, len: number): number {
  const magnitude = getBitU(buf, pos + 1, len - 1);
  return getBitU(buf, pos, 1) ? -magnitude : magnitude;
}
