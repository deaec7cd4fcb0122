import net from 'node:net';
import type { Clock } from './clock.ts';
import type { CasterLimits } from './limits.ts';
import { ProxyHeaderError, parseProxyHeader, type TrustedProxies } from './proxy-protocol.ts';
import { headEnd, type NtripRequest, parseRequestHead, RequestError } from './request.ts';
import { errorResponse } from './responses.ts';
import type { Logger } from './session-log.ts';
import { FilterError } from './sourcetable.ts';

const EMPTY = Buffer.alloc(0);

/** The NTRIP version of a head that could not be parsed, so even that refusal carries Ntrip-Version when asked. */
const versionOf = (head: Buffer): 1 | 2 =>
  /\r?\nntrip-version:\s*ntrip\/2\.0\s*\r?\n/i.test(head.toString('latin1')) ? 2 : 1;

/** Client addresses a trusted balancer named in a PROXY header, for the connections it relays. */
const proxiedAddresses = new WeakMap<net.Socket, string>();

/** The peer's address, IPv4 without its IPv6-mapped prefix. */
const peerOf = (socket: net.Socket) => socket.remoteAddress?.replace(/^::ffff:/, '') ?? 'unknown';

/** The client's address: the one a trusted balancer named for the connection, or else the connection's own. */
export const remoteOf = (socket: net.Socket) => proxiedAddresses.get(socket) ?? peerOf(socket);

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
export function reject(socket: net.Socket, response: Buffer): void {
  socket.end(response);
  socket.destroySoon();
}

/** What a connection is handed to once its request head is read; `rest` is what the client sent after the head. */
export interface RequestHandlers {
  limits: Pick<CasterLimits, 'headerTimeoutMs' | 'maxHeadBytes'>;
  /** Balancers allowed to name the client in a PROXY header (v1 or v2); from anyone else one is refused. */
  trustedProxies?: TrustedProxies;
  clock: Clock;
  logger: Logger;
  rover(socket: net.Socket, req: NtripRequest, rest: Buffer): Promise<void>;
  source(socket: net.Socket, req: NtripRequest, rest: Buffer): Promise<void>;
}

/**
 * Reads a new connection's request head within its time and size limits, refuses what is not an NTRIP request,
 * and hands the rest to the rover (GET) or source (SOURCE, POST) side.
 */
export function readRequest(socket: net.Socket, handlers: RequestHandlers): void {
  const { limits, clock, logger } = handlers;
  let head: Buffer = Buffer.alloc(0);
  // Only the connection's first bytes may be a PROXY header; once the head begins, nothing else is read as one.
  let proxyHeaderPossible = true;
  // Read now: a balancer's health check may be gone before its header is read, and with it the socket's address.
  const peer = peerOf(socket);
  const timer = clock.setTimeout(() => {
    socket.off('data', onHead);
    reject(socket, errorResponse(versionOf(head), 408, 'Request head not received in time'));
  }, limits.headerTimeoutMs);
  const onHead = (chunk: Buffer) => {
    head = head.length ? Buffer.concat([head, chunk]) : chunk;
    if (proxyHeaderPossible) {
      let header: ReturnType<typeof parseProxyHeader>;
      try {
        header = parseProxyHeader(head);
      } catch (err) {
        if (!(err instanceof ProxyHeaderError)) throw err;
        clock.clear(timer);
        socket.off('data', onHead);
        return reject(socket, errorResponse(1, 400, `Bad request: ${err.message}`));
      }
      if (header.kind === 'incomplete') return;
      proxyHeaderPossible = false;
      if (header.kind === 'header') {
        if (!handlers.trustedProxies?.has(peer)) {
          clock.clear(timer);
          socket.off('data', onHead);
          logger.warn({ remote: peer }, 'PROXY header from an address not among CASTER_TRUSTED_PROXIES');
          return reject(socket, errorResponse(1, 400, 'Bad request: PROXY header from an untrusted address'));
        }
        if (header.address) proxiedAddresses.set(socket, header.address.replace(/^::ffff:/, ''));
        head = head.subarray(header.length);
        if (head.length === 0) return;
      }
    }
    const end = headEnd(head);
    if (end < 0) {
      if (head.length > limits.maxHeadBytes) {
        clock.clear(timer);
        socket.off('data', onHead);
        reject(socket, errorResponse(versionOf(head), 431, `Request head larger than ${limits.maxHeadBytes} bytes`));
      }
      return;
    }
    clock.clear(timer);
    socket.off('data', onHead);
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
    // The handlers' promise keeps this scope alive while it runs (a rover's login awaits the database); let the head go.
    head = EMPTY;
    const work =
      req.method === 'GET'
        ? handlers.rover(socket, req, rest)
        : req.method === 'SOURCE' || req.method === 'POST'
          ? handlers.source(socket, req, rest)
          : Promise.resolve(
              reject(socket, errorResponse(req.ntripVersion, 405, 'Only GET, POST and SOURCE are served')),
            );
    work.catch((err) => {
      if (err instanceof FilterError) return reject(socket, errorResponse(2, 400, err.message));
      logger.error({ err }, 'request failed');
      reject(socket, errorResponse(req.ntripVersion, 503, 'Caster temporarily unavailable'));
    });
  };
  socket.on('data', onHead);
}

/** Errors end the connection through 'close'; without a listener an error would throw. */
const ignore = () => {};

/** The caster's TCP port: each connection read by readRequest; at close, what is still connected is cut. */
export class Listener {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private closed = false;

  /** Serves a connection of this port, or of a TLS port once its handshake is done (tls.ts). */
  readonly accept: (socket: net.Socket) => void;

  constructor(handlers: RequestHandlers) {
    // One listener of each kind for all sockets, not a closure per connection: a rover's every byte counts.
    const sockets = this.sockets;
    function forget(this: net.Socket) {
      sockets.delete(this);
    }
    this.accept = (socket) => {
      if (this.closed) return void socket.destroy();
      this.sockets.add(socket);
      socket.setNoDelay(true);
      socket.on('close', forget);
      socket.on('error', ignore);
      readRequest(socket, handlers);
    };
    this.server = net.createServer(this.accept);
    this.server.maxConnections = 100_000;
  }

  listen(port: number, host: string): Promise<net.AddressInfo> {
    return listenOn(this.server, port, host);
  }

  /** Takes no more connections; resolves once those left are gone (`destroySockets`). */
  stop(): Promise<void> {
    this.closed = true;
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  destroySockets(): void {
    for (const socket of this.sockets) socket.destroy();
  }
}
