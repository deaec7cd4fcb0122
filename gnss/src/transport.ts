/** RTCM 3 transport layer: preamble 0xD3, 6 reserved bits, 10-bit length, payload, CRC-24Q. */

const PREAMBLE = 0xd3;
export const FRAME_HEADER = 3;
const CRC = 3;
export const MAX_FRAME = FRAME_HEADER + 1023 + CRC;

const CRC24Q_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let crc = i << 16;
    for (let bit = 0; bit < 8; bit++) {
      crc <<= 1;
      if (crc & 0x1000000) crc ^= 0x1864cfb;
    }
    table[i] = crc & 0xffffff;
  }
  return table;
})();

export function crc24q(data: Uint8Array, start = 0, end = data.length): number {
  let crc = 0;
  for (let i = start; i < end; i++) {
    crc = ((crc << 8) & 0xffffff) ^ (CRC24Q_TABLE[((crc >>> 16) ^ (data[i] as number)) & 0xff] as number);
  }
  return crc;
}

/** Builds a valid frame around a payload (tests, the bench and the NATS bus use it). */
export function encodeFrame(payload: Uint8Array): Buffer {
  if (payload.length > 1023) throw new Error(`RTCM 3 payload of ${payload.length} bytes exceeds 1023`);
  const out = Buffer.alloc(FRAME_HEADER + payload.length + CRC);
  out[0] = PREAMBLE;
  out[1] = (payload.length >> 8) & 0x03;
  out[2] = payload.length & 0xff;
  out.set(payload, FRAME_HEADER);
  const crc = crc24q(out, 0, FRAME_HEADER + payload.length);
  out.writeUIntBE(crc, FRAME_HEADER + payload.length, 3);
  return out;
}

/** The message number of a whole frame (header included), 0 when it is too short to carry one. */
export function frameMessageType(frame: Uint8Array): number {
  return frame.length >= FRAME_HEADER + 2 ? ((frame[3] as number) << 4) | ((frame[4] as number) >> 4) : 0;
}

/** The payload of a whole frame, as a view. */
export function framePayload(frame: Buffer): Buffer {
  return frame.subarray(FRAME_HEADER, frame.length - CRC);
}

/**
 * Cuts a byte stream into CRC-checked frames. Bytes outside valid frames (junk, a frame cut at a file's start or
 * end, a CRC failure) are dropped and counted; a frame that lies whole inside one received chunk is passed on as a
 * view of that chunk, without copying, so a consumer that keeps it must copy it.
 */
export class RtcmFramer {
  private pending: Buffer | null = null;
  droppedBytes = 0;
  /** Candidate frames (preamble, length, all bytes present) whose CRC did not match: damage rather than junk. */
  crcFailures = 0;

  constructor(private readonly onFrame: (frame: Buffer) => void) {}

  push(chunk: Buffer): void {
    const pending = this.pending;
    if (!pending) {
      this.scan(chunk, 0, chunk.length);
      return;
    }
    this.pending = null;
    if (chunk.length <= MAX_FRAME) {
      const data = Buffer.concat([pending, chunk]);
      this.scan(data, 0, data.length);
      return;
    }
    // Only the frames that start in the held-back bytes need them joined to the chunk; one frame's length of the
    // chunk completes any of them, so the rest of the chunk is scanned where it lies, without copying it.
    const head = Buffer.concat([pending, chunk.subarray(0, MAX_FRAME)]);
    const resume = this.scan(head, 0, pending.length);
    this.scan(chunk, resume - pending.length, chunk.length);
  }

  /**
   * Cuts frames starting at `from` until a frame would start at or after `limit`, and returns where it stopped.
   * Bytes left at the end of `data` that may be the start of a frame are held back for the next chunk.
   */
  private scan(data: Buffer, from: number, limit: number): number {
    let i = from;
    const n = data.length;
    while (i < limit) {
      if (data[i] !== PREAMBLE) {
        const next = data.indexOf(PREAMBLE, i);
        const skipTo = next < 0 || next > limit ? limit : next;
        this.droppedBytes += skipTo - i;
        i = skipTo;
        continue;
      }
      if (n - i < FRAME_HEADER) break;
      const b1 = data[i + 1] as number;
      if (b1 & 0xfc) {
        this.droppedBytes++;
        i++;
        continue;
      }
      const total = FRAME_HEADER + (((b1 & 0x03) << 8) | (data[i + 2] as number)) + CRC;
      if (n - i < total) break;
      const crcAt = i + total - CRC;
      if (crc24q(data, i, crcAt) === data.readUIntBE(crcAt, 3)) {
        this.onFrame(data.subarray(i, i + total));
        i += total;
      } else {
        this.crcFailures++;
        this.droppedBytes++;
        i++;
      }
    }
    // Copy the tail so the rest of a large socket chunk is not kept alive for a few bytes.
    if (i < n && limit === n) this.pending = Buffer.from(data.subarray(i));
    return i;
  }

  /**
   * End of input. Held-back bytes may start with a false preamble whose length runs past the end and hide whole
   * frames behind it: they are rescanned from the next byte until only bytes that cannot be a frame remain, which
   * are counted as dropped.
   */
  end(): void {
    while (this.pending) {
      const rest = this.pending.subarray(1);
      this.pending = null;
      this.droppedBytes++;
      if (rest.length > 0) this.push(rest);
    }
  }

  /** Bytes held back waiting for the rest of a frame; at the end of a file they are a cut frame. */
  get pendingBytes(): number {
    return this.pending?.length ?? 0;
  }
}

/** Splits a whole capture into its valid frames. */
export function validFrames(capture: Buffer): Buffer[] {
  const frames: Buffer[] = [];
  new RtcmFramer((f) => frames.push(f)).push(capture);
  return frames;
}
