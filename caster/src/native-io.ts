import { lookup } from 'node:dns/promises';
import { EventEmitter } from 'node:events';
import net from 'node:net';
import { getSystemErrorMessage, getSystemErrorName } from 'node:util';
import type { ClientConnection, HeadReader } from './connection.ts';
import type { CasterLimits } from './limits.ts';
import { loadAddon } from './native-addon.ts';

type Handle = object;

const EMPTY = Buffer.alloc(0);

/** caster/native/native-io.c: the plain port's connections without a Node Socket each (ADR 0095). */
export interface NativeIo {
  open(maxHeadBytes: number, headerTimeoutMs: number, onBatch: (batch: Buffer) => void, maxConnections: number): Handle;
  listen(handle: Handle, host: string, port: number): number;
  write(handle: Handle, id: number, fd: number, data: Uint8Array): number;
  rover(handle: Handle, id: number, fd: number): void;
  close(handle: Handle, id: number, fd: number, graceful: boolean): void;
  detach(handle: Handle, id: number, fd: number): number;
  unlisten(handle: Handle): void;
  stop(handle: Handle): void;
  /** Logins the native thread answers itself (ADR 0100; native-logins.ts). */
  grant(
    handle: Handle,
    key: Buffer,
    id: number,
    account: number,
    ttlMs: number,
    response: Buffer,
    dateAt: number,
  ): boolean;
  forget(handle: Handle, account: number): void;
  lend(handle: Handle, account: number, seats: number): void;
  reclaim(handle: Handle, account: number): number;
  suspect(handle: Handle, address: string, held: boolean): void;
}

/** The native I/O addon, or why it is not there (not built, or not Linux): the caster then serves through Node. */
export const loadNativeIo = () => loadAddon<NativeIo>('native_io', 'native I/O needs Linux (epoll)');

/** Record types of a batch (native-io.c). */
const HEAD = 1;
const TIMEOUT = 2;
const DATA = 3;
const END = 4;
const DRAINED = 5;
const ADMITTED = 6;
const RECORD_HEADER = 24;

/**
 * A client connection of the native port, for its login and, as a rover, for as long as it stays: the part of a
 * Node Socket the caster uses (ClientConnection), its bytes sent and read by the native thread. `writableLength` is
 * what the native side still holds for it (queued when the socket was full, given back as it drains), so the fan-out
 * and the slow-rover limit treat it as they treat a Socket's.
 */
export class NativeConnection extends EventEmitter implements ClientConnection {
  destroyed = false;
  writableLength = 0;
  /** Its head waits for its turn to be logged in (NativePort.login). */
  waiting = true;
  /** The peer closed or half-closed while its head waited: ended once the head has been answered. */
  peerGone = false;
  /** Answered natively (ADR 0100): already a rover there, whose input is read without asking. */
  streaming = false;
  /** What such a rover sent before JavaScript registered it, given to its 'data' listener then. */
  early: Buffer | null = null;

  constructor(
    private readonly port: NativePort,
    readonly id: number,
    readonly fd: number,
    readonly remoteAddress: string,
  ) {
    super();
  }

  write(data: Uint8Array): boolean {
    if (this.destroyed) return false;
    const queued = this.port.native.write(this.port.handle, this.id, this.fd, data);
    if (queued > 0) this.writableLength += queued;
    return queued === 0;
  }

  /** Sends `data` and whatever is queued, then the end of the stream. */
  end(data?: Uint8Array): this {
    if (data) this.write(data);
    this.finish(true);
    return this;
  }

  destroySoon(): void {
    this.finish(true);
  }

  destroy(): this {
    this.finish(false);
    return this;
  }

  /** As a Node stream flows once it has a 'data' listener, the native side reads the rover's input from then on. */
  override on(event: string | symbol, listener: (...args: never[]) => void): this {
    super.on(event, listener as (...args: unknown[]) => void);
    if (event === 'data' && !this.destroyed && !this.streaming)
      this.port.native.rover(this.port.handle, this.id, this.fd);
    return this;
  }

  /** Takes the connection out of the native side into a Node Socket (sources, and whatever else is not a rover). */
  toNodeSocket(): net.Socket {
    this.destroyed = true;
    this.port.forget(this);
    const fd = this.port.native.detach(this.port.handle, this.id, this.fd);
    const socket = fd >= 0 ? new net.Socket({ fd, readable: true, writable: true }) : new net.Socket();
    if (fd < 0) socket.destroy();
    this.port.adopt(socket);
    return socket;
  }

  /** The peer closed or the connection failed (native END). */
  ended(): void {
    this.finish(false);
  }

  drained(bytes: number): void {
    this.writableLength = Math.max(0, this.writableLength - bytes);
  }

  private finish(graceful: boolean): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.port.forget(this);
    this.port.native.close(this.port.handle, this.id, this.fd, graceful);
    process.nextTick(emitClose, this);
  }
}

const emitClose = (connection: NativeConnection) => connection.emit('close');

/**
 * The plain port served by native-io.c: takes the heads it reads in batches and gives them to the caster's
 * HeadReader as Node's port does, and each connection's later input and end to its NativeConnection.
 */
export class NativePort {
  readonly handle: Handle;
  private readonly connections = new Map<number, NativeConnection>();
  private stopped = false;
  /** Heads received and not yet logged in (`login`), from `next` on. */
  private readonly heads: PendingHead[] = [];
  private next = 0;
  private scheduled = false;

  constructor(
    readonly native: NativeIo,
    limits: Pick<CasterLimits, 'maxHeadBytes' | 'headerTimeoutMs' | 'maxConnections'>,
    private readonly reader: HeadReader,
    /** Takes a connection handed to a Node Socket (the Listener's bookkeeping of its sockets). */
    readonly adopt: (socket: net.Socket) => void,
    /** A rover the native thread answered from a grant (ADR 0100), with the User-Agent its head gave. */
    private readonly admitted?: (connection: NativeConnection, grant: number, userAgent: string | null) => void,
  ) {
    this.handle = native.open(
      limits.maxHeadBytes,
      limits.headerTimeoutMs,
      (batch) => this.receive(batch),
      limits.maxConnections,
    );
  }

  /**
   * A host name is looked up first, as Node's `listen` does: the native side binds an address. A port that cannot be
   * bound fails as on Node's port, `listen EADDRINUSE: address already in use 0.0.0.0:2101`, the address named.
   */
  async listen(port: number, host: string): Promise<net.AddressInfo> {
    const address = net.isIP(host) ? host : (await lookup(host)).address;
    let bound: number;
    try {
      bound = this.native.listen(this.handle, address, port);
    } catch (err) {
      throw systemError(err, 'listen', address, port);
    }
    return { address, family: net.isIPv6(address) ? 'IPv6' : 'IPv4', port: bound };
  }

  forget(connection: NativeConnection): void {
    this.connections.delete(connection.id);
  }

  /** Takes no more connections; those open stay until `destroyAll`. */
  unlisten(): void {
    if (!this.stopped) this.native.unlisten(this.handle);
  }

  /** Closes every connection left and ends the native thread. */
  destroyAll(): void {
    if (this.stopped) return;
    for (const connection of [...this.connections.values()]) connection.destroy();
    this.stopped = true;
    this.native.stop(this.handle);
  }

  /**
   * Batches received, and those whose records have all been taken: a grant forgotten may still be named by records
   * of the next two batches, one in flight and one being filled (native-logins.ts).
   */
  batches = 0;
  settled = 0;

  private receive(batch: Buffer): void {
    this.batches++;
    let at = 0;
    while (at + RECORD_HEADER <= batch.length) {
      const type = batch[at] as number;
      const peerLength = batch[at + 1] as number;
      const fd = batch.readInt32LE(at + 4);
      const id = batch.readDoubleLE(at + 8);
      const length = batch.readUInt32LE(at + 16);
      const start = at + RECORD_HEADER + peerLength;
      const payload = batch.subarray(start, start + length);
      if (type === HEAD || type === TIMEOUT) {
        const peer = batch.toString('latin1', at + RECORD_HEADER, start);
        // Known at once, so an end reported before its login's turn reaches it.
        const connection = new NativeConnection(this, id, fd, peer);
        this.connections.set(id, connection);
        this.heads.push({
          connection,
          head: payload,
          expired: type === TIMEOUT,
          grant: 0,
          agent: null,
          batch: this.batches,
        });
      } else if (type === ADMITTED) {
        const connection = new NativeConnection(this, id, fd, batch.toString('latin1', at + RECORD_HEADER, start));
        connection.streaming = true;
        this.connections.set(id, connection);
        const agent = batch[at + 2] === 1 ? payload.toString('latin1').trim() : null;
        this.heads.push({
          connection,
          head: EMPTY,
          expired: false,
          grant: batch.readUInt32LE(at + 20),
          agent,
          batch: this.batches,
        });
      } else if (type === DATA) {
        const connection = this.connections.get(id);
        if (!connection?.waiting) connection?.emit('data', payload);
        else connection.early = connection.early ? Buffer.concat([connection.early, payload]) : payload;
      } else if (type === END) {
        // A client that sends its head and half-closes still gets the answer given at once, as Node's port gives it.
        const connection = this.connections.get(id);
        if (connection?.waiting) connection.peerGone = true;
        else connection?.ended();
      } else if (type === DRAINED) this.connections.get(id)?.drained(payload.readDoubleLE(0));
      at = start + length;
    }
    if (!this.scheduled) this.login();
  }

  /**
   * Logs in the heads received, SLICE_MS of them at a time: the rest wait for the next turn of the event loop, so
   * the frames that came meanwhile reach the rovers already connected between two slices of a storm.
   */
  private readonly login = () => {
    this.scheduled = false;
    const until = performance.now() + SLICE_MS;
    while (this.next < this.heads.length) {
      const { connection, head, expired, grant, agent, batch } = this.heads[this.next++] as PendingHead;
      this.settled = batch - 1;
      connection.waiting = false;
      if (connection.destroyed) continue;
      if (grant) this.admit(connection, grant, agent);
      else if (expired) this.reader.expired(connection, head);
      else this.reader.feed(connection, head);
      if (connection.peerGone) connection.ended();
      if (performance.now() >= until) break;
    }
    if (this.next < this.heads.length) {
      this.scheduled = true;
      setImmediate(this.login);
    } else {
      this.heads.length = 0;
      this.next = 0;
      this.settled = this.batches;
    }
  };

  private admit(connection: NativeConnection, grant: number, userAgent: string | null): void {
    if (!this.admitted) return void connection.destroy();
    this.admitted(connection, grant, userAgent);
    const { early } = connection;
    connection.early = null;
    if (early && !connection.destroyed) connection.emit('data', early);
  }
}

/** A native error whose code is an errno number (native-io.c `throw_errno`) as Node reports a system call's. */
function systemError(err: unknown, syscall: string, address: string, port: number): unknown {
  const errno = -Number((err as NodeJS.ErrnoException).code);
  if (!Number.isInteger(errno) || errno >= 0) return err;
  const code = getSystemErrorName(errno);
  const message = `${syscall} ${code}: ${getSystemErrorMessage(errno)} ${address}:${port}`;
  return Object.assign(new Error(message), { code, errno, syscall, address, port });
}

interface PendingHead {
  connection: NativeConnection;
  head: Buffer;
  expired: boolean;
  /** The grant that answered it natively, or 0 (ADR 0100); then its head's User-Agent, null without one. */
  grant: number;
  agent: string | null;
  batch: number;
}

/** How long one turn of the event loop logs rovers in during a storm before frames may pass (ms). */
const SLICE_MS = 2;
