import { promisify } from 'node:util';
import zlib from 'node:zlib';

/**
 * An archive file is a sequence of gzip members, one per flush (a few seconds of frames), each holding whole RTCM 3
 * frames only. Concatenated members are one valid gzip file (`zcat` reads it), and each member is self-contained:
 * a crash that cuts the last one loses only it. Like BGZF, each member's header carries its own total length in an
 * extra field ('RA', 4 bytes, little-endian), so a reader finds member boundaries without inflating and can tell
 * a cut or damaged member from the ones before it.
 */

const HEADER = 20;
const TRAILER = 8;
/** Smallest possible member: header, an empty deflate block (2 bytes), trailer. */
const MIN_MEMBER = HEADER + 2 + TRAILER;
/** No flush comes near this; a larger length field means the header is damaged. */
const MAX_MEMBER = 64 * 1024 * 1024;

const inflateRaw = promisify(zlib.inflateRaw);

/**
 * A 4 KB window and smaller hash tables: a member is a few KB, it compresses just as well (the captures' 5 KB pieces
 * to 86.6 % either way), and zlib sets up a quarter of the memory, which is most of the time a small member takes
 * (about 60 µs for 5 KB, against 200 µs with the defaults).
 */
const DEFLATE = { level: 6, windowBits: 12, memLevel: 7 } as const;

/**
 * Compresses whole frames into one member. Synchronous on purpose: Node's asynchronous zlib builds a stream for
 * every call, which costs the event loop more (about 0.5 ms) than compressing a few KB here.
 */
export function encodeMember(raw: Buffer): Buffer {
  const body = zlib.deflateRawSync(raw, DEFLATE);
  const member = Buffer.allocUnsafe(HEADER + body.length + TRAILER);
  member[0] = 0x1f;
  member[1] = 0x8b;
  member[2] = 8; // deflate
  member[3] = 4; // FEXTRA
  member.writeUInt32LE(0, 4); // no modification time
  member[8] = 0;
  member[9] = 255; // OS unknown
  member.writeUInt16LE(8, 10); // XLEN
  member[12] = 0x52; // 'R'
  member[13] = 0x41; // 'A'
  member.writeUInt16LE(4, 14);
  member.writeUInt32LE(member.length, 16);
  body.copy(member, HEADER);
  member.writeUInt32LE(zlib.crc32(raw), HEADER + body.length);
  member.writeUInt32LE(raw.length >>> 0, HEADER + body.length + 4);
  return member;
}

/** The total length a member header at `offset` declares, or null when the bytes there are not one of ours. */
export function memberLength(data: Buffer, offset = 0): number | null {
  if (data.length - offset < HEADER) return null;
  if (data[offset] !== 0x1f || data[offset + 1] !== 0x8b || data[offset + 2] !== 8 || data[offset + 3] !== 4)
    return null;
  if (data.readUInt16LE(offset + 10) !== 8 || data[offset + 12] !== 0x52 || data[offset + 13] !== 0x41) return null;
  if (data.readUInt16LE(offset + 14) !== 4) return null;
  const length = data.readUInt32LE(offset + 16);
  return length >= MIN_MEMBER && length <= MAX_MEMBER ? length : null;
}

export const MEMBER_HEADER_BYTES = HEADER;

function verified(member: Buffer, raw: Buffer): Buffer | null {
  const end = member.length;
  if (member.readUInt32LE(end - 8) !== zlib.crc32(raw)) return null;
  if (member.readUInt32LE(end - 4) !== raw.length >>> 0) return null;
  return raw;
}

/** The frames of one whole member, or null when it does not inflate or its CRC-32 or length disagree. */
export function decodeMember(member: Buffer): Buffer | null {
  try {
    return verified(member, zlib.inflateRawSync(member.subarray(HEADER, member.length - TRAILER)));
  } catch {
    return null;
  }
}

/** As decodeMember, off the event loop: for checks a running caster makes. */
export async function decodeMemberAsync(member: Buffer): Promise<Buffer | null> {
  try {
    return verified(member, await inflateRaw(member.subarray(HEADER, member.length - TRAILER)));
  } catch {
    return null;
  }
}

export interface ArchiveDamage {
  /** Byte offset of the damaged part in the stored hour. */
  offset: number;
  /** `truncated`: the hour ends inside a member (a crash while writing it). */
  kind: 'truncated' | 'bad_member' | 'bad_header';
  /** Bytes skipped. */
  bytes: number;
}

/**
 * Inflates the members of one stored hour as they stream in, one member in memory at a time. A member whose
 * checksum fails is skipped (its length is known); a cut member at the end and anything after a header that is
 * not ours are skipped too, and reported, so the earlier part of the hour is always read.
 */
export async function* decodeMembers(
  stored: AsyncIterable<Buffer>,
  onDamage?: (damage: ArchiveDamage) => void,
): AsyncGenerator<Buffer> {
  let pending: Buffer = Buffer.alloc(0);
  let offset = 0;
  let unreadable = -1;
  for await (const chunk of stored) {
    if (unreadable >= 0) {
      unreadable += chunk.length;
      continue;
    }
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    while (pending.length >= HEADER) {
      const length = memberLength(pending);
      if (length === null) {
        unreadable = pending.length;
        break;
      }
      if (pending.length < length) break;
      const raw = decodeMember(pending.subarray(0, length));
      if (raw) yield raw;
      else onDamage?.({ offset, kind: 'bad_member', bytes: length });
      pending = pending.subarray(length);
      offset += length;
    }
  }
  if (unreadable >= 0) onDamage?.({ offset, kind: 'bad_header', bytes: unreadable });
  else if (pending.length > 0) onDamage?.({ offset, kind: 'truncated', bytes: pending.length });
}
