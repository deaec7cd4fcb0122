import net from 'node:net';
import type tls from 'node:tls';
import type { Clock, ClockTimer } from './clock.ts';
import type { CasterLimits } from './limits.ts';
import { NativeConnection, type NativeIo, NativePort } from './native-io.ts';
import { ProxyHeaderError, parseProxyHeader, type TrustedProxies } from './proxy-protocol.ts';
import { headEnd, type NtripRequest, parseRequestHead, RequestError } from './request.ts';
import { errorResponse } from './responses.ts';
import type { Logger } from './session-log.ts';
import { FilterError } from './sourcetable.ts';

/** No bytes: a head not begun, or nothing after one. */
export const EMPTY = Buffer.alloc(0);

/** The NTRIP version of a head that could not be parsed, so even that refusal carries Ntrip-Version when asked. */
const versionOf = (head: Buffer): 1 | 2 =>
  /\r?\nntrip-version:\s*ntrip\/2\.0\s*\r?\n/i.test(head.toString('latin1')) ? 2 : 1;

/**
 * What the login and a rover use of a client's connection: a Node Socket (the TLS ports, and the plain port unless
 * native I/O serves it) or a NativeConnection (ADR 0095).
 */
export interface ClientConnection {
  readonly destroyed: boolean;
  /** Bytes accepted by `write` and not yet taken by the kernel. */
  readonly writableLength: number;
  readonly remoteAddress?: string | undefined;
  write(data: Uint8Array): boolean;
  end(): unknown;
  end(data: Uint8Array): unknown;
  destroySoon(): void;
  destroy(): unknown;
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'close' | 'error', listener: () => void): unknown;
  once(event: 'close', listener: () => void): unknown;
  off(event: 'data', listener: (chunk: Buffer) => void): unknown;
}

/** An address without its IPv6-mapped prefix, so an IPv4 client reads as IPv4. */
const unmapped = (address: string) => (address.startsWith('::ffff:') ? address.slice(7) : address);

/** The peer's address, IPv4 without its IPv6-mapped prefix. */
export const peerOf = (socket: ClientConnection) => {
  const address = socket.remoteAddress;
  return address === undefined ? 'unknown' : unmapped(address);
};

/**
 * The client's address, kept on the socket once its head reading starts: the one a trusted balancer named for the
 * connection in a PROXY header, or else the connection's own (read once, not again at every login step).
 */
const CLIENT = Symbol('client');
type ClientSocket = ClientConnection & { [CLIENT]?: string };

/** The client's address: the one a trusted balancer named for the connection, or else the connection's own. */
export const remoteOf = (socket: ClientConnection) => (socket as ClientSocket)[CLIENT] ?? peerOf(socket);

/** Listens with the caster's backlog (a reconnection storm queues thousands); the plain and TLS ports share it. */
export async function listenOn(server: net.Server, port: number, host: string): Promise<net.AddressInfo> {
  await new Promise<void>((resolve, fail) => {
    server.once('error', fail);
    server.listen({ port, host, backlog: 4096 }, () => {
      server.off('error', fail);
      resolve();
    });
  });
  return server.address() as net.AddressInfo;
}

/** Answers and closes once the answer is written. */
export function reject(socket: ClientConnection, response: Buffer): void {
  socket.end(response);
  socket.destroySoon();
}

/** What a connection is handed to once its request head is read; `rest` is what the client sent after the head. */
export interface RequestHandlers {
  limits: Pick<CasterLimits, 'headerTimeoutMs' | 'maxHeadBytes' | 'maxConnections'>;
  /** Balancers allowed to name the client in a PROXY header (v1 or v2); from anyone else one is refused. */
  trustedProxies?: TrustedProxies;
  clock: Clock;
  logger: Logger;
  rover(socket: ClientConnection, req: NtripRequest, rest: Buffer): Promise<void>;
  /** A rover the native port answered itself from a grant (ADR 0100). */
  answered?(connection: NativeConnection, grant: number, userAgent: string | null): void;
  source(socket: net.Socket, req: NtripRequest, rest: Buffer): Promise<void>;
}

/** A connection whose request head is still being read. */
interface Reading {
  socket: ClientConnection;
  head: Buffer;
  /**
   * Only the connection's first bytes may be a PROXY header; once the head begins, nothing else is read as one. On a
   * TLS port a balancer's header comes before the handshake (tls.ts reads it there), never inside the encryption.
   */
  proxyHeaderPossible: boolean;
  /** Read at once: a balancer's health check may be gone before its header is read, and with it the socket's address. */
  peer: string;
  /** When its head is due (clock ms). */
  due: number;
}

const READING = Symbol('reading');
type ReadingSocket = ClientConnection & { [READING]?: Reading };

/**
 * Reads new connections' request heads within their time and size limits, refuses what is not an NTRIP request,
 * and hands the rest to the rover (GET) or source (SOURCE, POST) side. One 'data' listener and one timer serve every
 * connection being read: in a reconnection storm a closure and a timer per connection were a tenth of a login's CPU.
 * The timer waits for the oldest head only; every head has the same time, so the order they came in is the order
 * they are due in.
 */
export class HeadReader {
  private readonly reading = new Set<Reading>();
  private timer: ClockTimer | null = null;
  private readonly onData: (this: ClientConnection, chunk: Buffer) => void;

  constructor(private readonly handlers: RequestHandlers) {
    const reader = this;
    this.onData = function (chunk) {
      const reading = (this as ReadingSocket)[READING];
      if (reading) reader.read(reading, chunk);
    };
  }

  /** `clientAddress`: the one a trusted balancer named before a TLS handshake (tls.ts). */
  start(socket: net.Socket, clientAddress?: string): void {
    const { clock, limits } = this.handlers;
    const reading = this.begin(socket, !(socket as tls.TLSSocket).encrypted, clientAddress);
    reading.due = clock.now() + limits.headerTimeoutMs;
    this.reading.add(reading);
    this.timer ??= clock.setTimeout(this.expire, limits.headerTimeoutMs);
    socket.on('data', this.onData);
  }

  /**
   * A head the native port read (native-io.c): complete, or as much as it holds, which can then only be refused. The
   * native side kept its time; a PROXY header at its start is read here as on Node's port.
   */
  feed(connection: NativeConnection, head: Buffer): void {
    const reading = this.begin(connection, true);
    this.read(reading, head);
    if ((connection as ReadingSocket)[READING] !== reading) return;
    (connection as ReadingSocket)[READING] = undefined;
    reject(
      connection,
      errorResponse(
        versionOf(reading.head),
        431,
        `Request head larger than ${this.handlers.limits.maxHeadBytes} bytes`,
      ),
    );
  }

  /** A native connection whose head did not arrive in time: the answer Node's port gives. */
  expired(connection: NativeConnection, head: Buffer): void {
    reject(connection, errorResponse(versionOf(head), 408, 'Request head not received in time'));
  }

  private begin(socket: ClientConnection, proxyHeaderPossible: boolean, clientAddress?: string): Reading {
    const reading: Reading = { socket, head: EMPTY, proxyHeaderPossible, peer: peerOf(socket), due: 0 };
    (socket as ReadingSocket)[READING] = reading;
    (socket as ClientSocket)[CLIENT] = clientAddress === undefined ? reading.peer : unmapped(clientAddress);
    return reading;
  }

  /** A connection that closed before its head was read is not waited for. */
  closed(socket: ClientConnection): void {
    const reading = (socket as ReadingSocket)[READING];
    if (reading) this.done(reading);
  }

  /** Stops reading a connection's head (read, refused or timed out): nothing of it is kept here. */
  private done(reading: Reading): void {
    this.reading.delete(reading);
    (reading.socket as ReadingSocket)[READING] = undefined;
    reading.socket.off('data', this.onData);
  }

  /** Refuses the heads that are due, then waits for the oldest one left. */
  private readonly expire = () => {
    this.timer = null;
    const now = this.handlers.clock.now();
    for (const reading of this.reading) {
      if (reading.due > now) {
        this.timer = this.handlers.clock.setTimeout(this.expire, reading.due - now);
        return;
      }
      this.done(reading);
      if (!reading.socket.destroyed)
        reject(reading.socket, errorResponse(versionOf(reading.head), 408, 'Request head not received in time'));
    }
  };

  /** Closes the shared timer (the caster's close). */
  stop(): void {
    if (this.timer) this.handlers.clock.clear(this.timer);
    this.timer = null;
  }

  private read(reading: Reading, chunk: Buffer) {
    const { handlers } = this;
    const { limits, logger } = handlers;
    const { socket } = reading;
    reading.head = reading.head.length ? Buffer.concat([reading.head, chunk]) : chunk;
    if (reading.proxyHeaderPossible) {
      let header: ReturnType<typeof parseProxyHeader>;
      try {
        header = parseProxyHeader(reading.head);
      } catch (err) {
        if (!(err instanceof ProxyHeaderError)) throw err;
        this.done(reading);
        return reject(socket, errorResponse(1, 400, `Bad request: ${err.message}`));
      }
      if (header.kind === 'incomplete') return;
      reading.proxyHeaderPossible = false;
      if (header.kind === 'header') {
        if (!handlers.trustedProxies?.has(reading.peer)) {
          this.done(reading);
          logger.warn({ remote: reading.peer }, 'PROXY header from an address not among CASTER_TRUSTED_PROXIES');
          return reject(socket, errorResponse(1, 400, 'Bad request: PROXY header from an untrusted address'));
        }
        if (header.address) (socket as ClientSocket)[CLIENT] = unmapped(header.address);
        reading.head = reading.head.subarray(header.length);
        if (reading.head.length === 0) return;
      }
    }
    const { head } = reading;
    const end = headEnd(head);
    if (end < 0) {
      if (head.length > limits.maxHeadBytes) {
        this.done(reading);
        reject(socket, errorResponse(versionOf(head), 431, `Request head larger than ${limits.maxHeadBytes} bytes`));
      }
      return;
    }
    this.done(reading);
    if (end > limits.maxHeadBytes) {
      return reject(
        socket,
        errorResponse(versionOf(head), 431, `Request head larger than ${limits.maxHeadBytes} bytes`),
      );
    }
    let req: NtripRequest;
    try {
      req = parseRequestHead(head.subarray(0, end).toString('latin1'));
    } catch (err) {
      const message = err instanceof RequestError ? err.message : 'unreadable request';
      return reject(socket, errorResponse(versionOf(head), 400, `Bad request: ${message}`));
    }
    const rest = head.subarray(end);
    const source = req.method === 'SOURCE' || req.method === 'POST';
    // Only rovers stay native: a source, rare and long-lived, goes to a Node Socket and everything it has today.
    const client = source && socket instanceof NativeConnection ? socket.toNodeSocket() : socket;
    const work =
      req.method === 'GET'
        ? handlers.rover(client, req, rest)
        : source
          ? handlers.source(client as net.Socket, req, rest)
          : Promise.resolve(
              reject(client, errorResponse(req.ntripVersion, 405, 'Only GET, POST and SOURCE are served')),
            );
    work.catch((err) => {
      if (err instanceof FilterError) return reject(client, errorResponse(2, 400, err.message));
      logger.error({ err }, 'request failed');
      reject(client, errorResponse(req.ntripVersion, 503, 'Caster temporarily unavailable'));
    });
  }
}

/** Errors end the connection through 'close'; without a listener an error would throw. */
const ignore = () => {};

/** The caster's TCP port: each connection's head read by a HeadReader; at close, what is still connected is cut. */
export class Listener {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private readonly heads: HeadReader;
  private closed = false;

  /**
   * Serves a connection of this port, or of a TLS port once its handshake is done (tls.ts), with the client address
   * a trusted balancer's PROXY header named before the handshake.
   */
  readonly accept: (socket: net.Socket, clientAddress?: string) => void;
  /** Keeps a socket whose head was read elsewhere (the native port's sources): cut at close like the others. */
  readonly adopt: (socket: net.Socket) => void;

  /** The native port (ADR 0095) serving the plain port instead of `server`, when the caster turned it on. */
  private readonly native: NativePort | null;

  constructor(handlers: RequestHandlers, nativeIo?: NativeIo) {
    // One listener of each kind for all sockets, not a closure per connection: a rover's every byte counts.
    const sockets = this.sockets;
    const heads = new HeadReader(handlers);
    this.heads = heads;
    function forget(this: net.Socket) {
      sockets.delete(this);
      heads.closed(this);
    }
    this.adopt = (socket) => {
      this.sockets.add(socket);
      socket.on('close', forget);
      socket.on('error', ignore);
    };
    this.accept = (socket, clientAddress) => {
      if (this.closed) return void socket.destroy();
      this.adopt(socket);
      socket.setNoDelay(true);
      heads.start(socket, clientAddress);
    };
    this.server = net.createServer(this.accept);
    this.server.maxConnections = handlers.limits.maxConnections;
    this.native = nativeIo ? new NativePort(nativeIo, handlers.limits, heads, this.adopt, handlers.answered) : null;
  }

  /** The native port serving the plain port (ADR 0095), or null when Node serves it. */
  get nativePort(): NativePort | null {
    return this.native;
  }

  async listen(port: number, host: string): Promise<net.AddressInfo> {
    return this.native ? this.native.listen(port, host) : listenOn(this.server, port, host);
  }

  /** Takes no more connections; resolves once those left are gone (`destroySockets`). */
  stop(): Promise<void> {
    this.closed = true;
    this.heads.stop();
    this.native?.unlisten();
    // Not listening (the native port served it) calls back at once.
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  destroySockets(): void {
    for (const socket of this.sockets) socket.destroy();
    this.native?.destroyAll();
  }
}
