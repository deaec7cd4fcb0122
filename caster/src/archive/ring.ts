/**
 * The frames on their way from the relay's thread to the archive's: one writer (the relay), one reader (the
 * archive's thread), in a SharedArrayBuffer. The writer copies a frame in and moves its position; nothing is
 * allocated per frame, so archiving adds no garbage, and so no collections, to the thread that serves the rovers.
 * A frame that does not fit is refused (the caller drops and counts it): the relay never waits for the archive.
 *
 * Layout: a control block, then the ring. Positions are byte counts since the start that wrap at 2^32; the ring's
 * size is a power of two, so a position's place in it is `position & mask`. A record is a 32-byte header and its
 * payload, 8-byte aligned, never split: one that would cross the end is preceded by a wrap mark (length 0).
 */

const CONTROL_BYTES = 64;
/** Int32 slots of the control block. */
const WRITE = 0;
const READ = 1;
/** Float64 slot (byte 16): the relay's clock minus Date.now(), for a test's clock. */
const CLOCK_OFFSET = 2;

const HEADER = 32;
/** Uint32 slots of a record header; the arrival time is the Float64 at byte 24. */
const LENGTH = 0;
const PAYLOAD = 1;
const STATION = 2;
const TYPE = 3;
const DROPPED = 4;
const AT = 3;
/** TYPE of a record that names a station: its payload is the mountpoint, before the station's first frame. */
export const NAME_RECORD = 0x10000;

/** The smallest power of two of at least `bytes`, and at least 64 KB. */
export function ringBytes(bytes: number): number {
  let size = 64 * 1024;
  while (size < bytes && size < 1 << 30) size *= 2;
  return size;
}

export function createRing(bytes: number): SharedArrayBuffer {
  return new SharedArrayBuffer(CONTROL_BYTES + ringBytes(bytes));
}

class RingViews {
  protected readonly control: Int32Array;
  protected readonly clockOffset: Float64Array;
  protected readonly words: Uint32Array;
  protected readonly doubles: Float64Array;
  protected readonly bytes: Buffer;
  protected readonly size: number;
  protected readonly mask: number;

  constructor(shared: SharedArrayBuffer) {
    this.control = new Int32Array(shared, 0, 4);
    this.clockOffset = new Float64Array(shared, 8 * CLOCK_OFFSET, 1);
    this.size = shared.byteLength - CONTROL_BYTES;
    this.mask = this.size - 1;
    this.words = new Uint32Array(shared, CONTROL_BYTES, this.size / 4);
    this.doubles = new Float64Array(shared, CONTROL_BYTES, this.size / 8);
    this.bytes = Buffer.from(shared, CONTROL_BYTES, this.size);
  }
}

/** The relay's side. */
export class RingWriter extends RingViews {
  private position = 0;

  /** Copies one record in; false when the ring has no room for it (the reader is behind). */
  write(station: number, type: number, payload: Uint8Array, at: number, dropped: number): boolean {
    const length = (HEADER + payload.length + 7) & ~7;
    const free = this.size - ((this.position - Atomics.load(this.control, READ)) | 0);
    let place = this.position & this.mask;
    const toEnd = this.size - place;
    if (length > toEnd) {
      if (toEnd + length > free) return false;
      this.words[place >> 2] = 0;
      this.position = (this.position + toEnd) | 0;
      place = 0;
    } else if (length > free) return false;
    const word = place >> 2;
    this.words[word + LENGTH] = length;
    this.words[word + PAYLOAD] = payload.length;
    this.words[word + STATION] = station;
    this.words[word + TYPE] = type;
    this.words[word + DROPPED] = dropped;
    this.doubles[(place >> 3) + AT] = at;
    this.bytes.set(payload, place + HEADER);
    this.position = (this.position + length) | 0;
    Atomics.store(this.control, WRITE, this.position);
    Atomics.notify(this.control, WRITE);
    return true;
  }

  /** The relay's clock is not Date.now() (tests): the archive's thread reads the difference for its flushes. */
  setClockOffset(ms: number): void {
    this.clockOffset[0] = ms;
  }
}

/** ES2024's Atomics.waitAsync (Node has it since 16), missing from the ES2023 library this project compiles with. */
type AtomicsWaitAsync = typeof Atomics & {
  waitAsync(
    array: Int32Array,
    index: number,
    value: number,
  ): { async: false; value: 'not-equal' | 'timed-out' } | { async: true; value: Promise<'ok' | 'timed-out'> };
};

export interface RingRecord {
  station: number;
  type: number;
  /** A view into the ring, valid until the handler returns. */
  payload: Buffer;
  at: number;
  dropped: number;
}

/** The archive thread's side. */
export class RingReader extends RingViews {
  private position = 0;
  private readonly record: RingRecord = { station: 0, type: 0, payload: Buffer.alloc(0), at: 0, dropped: 0 };

  /** Hands every record written so far to `handle`, oldest first, and frees their room. */
  drain(handle: (record: RingRecord) => void): void {
    const end = Atomics.load(this.control, WRITE);
    while (this.position !== end) {
      const place = this.position & this.mask;
      const word = place >> 2;
      const length = this.words[word + LENGTH] as number;
      if (length === 0) {
        this.position = (this.position + (this.size - place)) | 0;
        continue;
      }
      const record = this.record;
      record.station = this.words[word + STATION] as number;
      record.type = this.words[word + TYPE] as number;
      record.dropped = this.words[word + DROPPED] as number;
      record.at = this.doubles[(place >> 3) + AT] as number;
      record.payload = this.bytes.subarray(place + HEADER, place + HEADER + (this.words[word + PAYLOAD] as number));
      handle(record);
      this.position = (this.position + length) | 0;
    }
    Atomics.store(this.control, READ, this.position);
  }

  /** Resolves once the writer has written past what was drained (at once if it already has). */
  async written(): Promise<void> {
    const waited = (Atomics as AtomicsWaitAsync).waitAsync(this.control, WRITE, this.position);
    if (waited.async) await waited.value;
  }

  /** The relay's clock, as this thread can read it. */
  now(): number {
    return Date.now() + (this.clockOffset[0] as number);
  }
}
