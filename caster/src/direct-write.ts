import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type net from 'node:net';
import { isTls } from './tls.ts';

interface NativeFanout {
  send(fds: Int32Array, count: number, data: Uint8Array, results: Int32Array): void;
  /** How many threads share each frame's sends, the calling one included; throws when a helper cannot start. */
  threads(count: number): number;
}

const ADDON = new URL('../native/build/Release/fanout.node', import.meta.url);
/** No result was written for this socket (the batch failed part-way); it is treated as not sent. */
const UNKNOWN = -0x7fffffff;

let loaded: { native: NativeFanout } | { error: string } | undefined;

/**
 * The io_uring fan-out addon (`caster/native`), or why it is not there: not built (no C compiler when the
 * workspace was installed), or the kernel refuses io_uring. The caster then writes through Node alone.
 */
export function loadDirectWrites(): { native: NativeFanout } | { error: string } {
  if (loaded) return loaded;
  if (process.platform !== 'linux') loaded = { error: 'io_uring needs Linux' };
  else if (!existsSync(ADDON)) loaded = { error: 'caster/native is not built (npm run -w caster build:native)' };
  else {
    try {
      loaded = { native: createRequire(import.meta.url)(ADDON.pathname) as NativeFanout };
    } catch (err) {
      loaded = { error: (err as Error).message };
    }
  }
  return loaded;
}

const descriptorOf = (socket: net.Socket): number | undefined =>
  (socket as unknown as { _handle?: { fd?: number } | null })._handle?.fd;

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
  private sockets = new Array<net.Socket | undefined>(256).fill(undefined);
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
  add(socket: net.Socket): boolean {
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
      const socket = this.sockets[i] as net.Socket;
      this.sockets[i] = undefined;
      if (sent === data.length) continue;
      // A full socket (-EAGAIN) queues in Node; a broken one (-EPIPE, -ECONNRESET) fails there the usual way.
      socket.write(sent > 0 ? data.subarray(sent) : data);
    }
  }
}
