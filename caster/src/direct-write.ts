import type { ClientConnection } from './connection.ts';
import { type Loaded, loadAddon } from './native-addon.ts';
import { NativeConnection } from './native-io.ts';
import { isTls } from './tls.ts';

interface NativeFanout {
  send(fds: Int32Array, count: number, data: Uint8Array, results: Int32Array): void;
  /** How many threads share each frame's sends, the calling one included; throws when a helper cannot start. */
  threads(count: number): number;
}

/** No result was written for this socket (the batch failed part-way); it is treated as not sent. */
const UNKNOWN = -0x7fffffff;

/**
 * The io_uring fan-out addon (`caster/native`), or why it is not there; the caster then writes through Node alone.
 */
export function loadDirectWrites(): Loaded<NativeFanout> {
  const addon = loadAddon<NativeFanout>('fanout', 'io_uring needs Linux');
  // A build from before ADR 0094 (a worktree not rebuilt since) has no threads(): say so rather than half-work.
  return 'native' in addon && typeof addon.native.threads !== 'function'
    ? { error: 'caster/native is older than its source (npm run -w caster build:native)' }
    : addon;
}

/** A native connection's descriptor stays open until JavaScript closes it (ADR 0095), so it is read as it is. */
const descriptorOf = (socket: ClientConnection): number | undefined =>
  socket instanceof NativeConnection
    ? socket.fd
    : (socket as unknown as { _handle?: { fd?: number } | null })._handle?.fd;

/**
 * Collects the sockets one buffer goes to, then writes it to all of them with one system call.
 *
 * Only a socket with nothing queued in Node is written directly, so bytes never overtake Node's own writes;
 * its descriptor is read from the live handle at that moment (a destroyed socket has none), and the native
 * call returns only once every send is done, so a descriptor is never used after Node could close it.
 */
export class DirectWriter {
  private fds = new Int32Array(256);
  private results = new Int32Array(256);
  /**
   * Kept at its size between frames and cleared slot by slot: emptying it would free its storage and regrow it
   * for every frame, garbage in proportion to the rovers, and the collections it causes pause every rover.
   */
  private sockets = new Array<ClientConnection | undefined>(256).fill(undefined);
  private count = 0;
  private failure: Error | null = null;

  constructor(
    private readonly native: NativeFanout,
    private readonly onFailure: (err: Error) => void,
  ) {}

  get pending(): boolean {
    return this.count > 0;
  }

  /** Queues a socket for the next flush; false when it must be written through Node instead. */
  add(socket: ClientConnection): boolean {
    // A TLS socket's descriptor carries ciphertext: its frames must go through Node's TLS stream.
    if (this.failure || socket.destroyed || socket.writableLength > 0 || isTls(socket)) return false;
    const fd = descriptorOf(socket);
    if (typeof fd !== 'number' || fd < 0) return false;
    if (this.count === this.fds.length) {
      const fds = new Int32Array(this.count * 2);
      fds.set(this.fds);
      this.fds = fds;
      this.results = new Int32Array(this.count * 2);
      this.sockets = this.sockets.concat(new Array<undefined>(this.count).fill(undefined));
    }
    this.fds[this.count] = fd;
    this.sockets[this.count++] = socket;
    return true;
  }

  /** Sends `data` to every queued socket; the part a socket did not take goes through Node's stream, in order. */
  flush(data: Buffer): void {
    const count = this.count;
    if (count === 0) return;
    this.count = 0;
    this.results.fill(UNKNOWN, 0, count);
    try {
      this.native.send(this.fds, count, data, this.results);
    } catch (err) {
      this.failure = err as Error;
      this.onFailure(this.failure);
    }
    for (let i = 0; i < count; i++) {
      const sent = this.results[i] as number;
      const socket = this.sockets[i] as ClientConnection;
      this.sockets[i] = undefined;
      if (sent === data.length) continue;
      // A full socket (-EAGAIN) queues in Node; a broken one (-EPIPE, -ECONNRESET) fails there the usual way.
      socket.write(sent > 0 ? data.subarray(sent) : data);
    }
  }
}
