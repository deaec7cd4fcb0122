import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import type { Clock } from './clock.ts';
import { listenOn, peerOf, reject } from './connection.ts';
import { ProxyHeaderError, parseProxyHeader, type TrustedProxies } from './proxy-protocol.ts';
import { errorResponse } from './responses.ts';
import type { Logger } from './session-log.ts';

/** Where the TLS port's certificate (PEM, with its chain) and private key (PEM) are read from. */
export interface TlsFiles {
  certFile: string;
  keyFile: string;
  /** How often the files are checked for a replacement (default 5 s); reloading never drops a connection. */
  watchIntervalMs?: number;
}

export interface TlsCredentials {
  cert: Buffer;
  key: Buffer;
  /** The leaf certificate's subject and end, for the log and the connection card. */
  subject: string;
  validTo: Date;
}

/** A certificate configuration the caster cannot serve: the message says which file and what is wrong. */
export class TlsConfigError extends Error {}

/**
 * Reads and checks the certificate and key: both readable PEM, the certificate valid now (not expired, not yet
 * valid is refused too) and the key the certificate's own. Throws TlsConfigError with a message for the operator.
 */
export function loadTlsFiles(files: TlsFiles, now: Date): TlsCredentials {
  const read = (what: string, path: string) => {
    try {
      return readFileSync(path);
    } catch (err) {
      throw new TlsConfigError(`TLS ${what} ${path} cannot be read: ${(err as Error).message}`);
    }
  };
  const cert = read('certificate', files.certFile);
  const key = read('key', files.keyFile);
  let leaf: X509Certificate;
  try {
    leaf = new X509Certificate(cert);
  } catch (err) {
    throw new TlsConfigError(`TLS certificate ${files.certFile} is not a PEM certificate: ${(err as Error).message}`);
  }
  const validFrom = new Date(leaf.validFrom);
  const validTo = new Date(leaf.validTo);
  if (validTo <= now) {
    throw new TlsConfigError(`TLS certificate ${files.certFile} expired on ${validTo.toISOString()}; renew it`);
  }
  if (validFrom > now) {
    throw new TlsConfigError(`TLS certificate ${files.certFile} is not valid before ${validFrom.toISOString()}`);
  }
  let matches: boolean;
  try {
    matches = leaf.checkPrivateKey(createPrivateKey(key));
  } catch (err) {
    throw new TlsConfigError(`TLS key ${files.keyFile} is not a PEM private key: ${(err as Error).message}`);
  }
  if (!matches) {
    throw new TlsConfigError(`TLS key ${files.keyFile} is not the key of the certificate ${files.certFile}`);
  }
  return { cert, key, subject: leaf.subject.replace(/\n/g, ', '), validTo };
}

/** What a TLS port needs besides its certificate: the same limits and balancers as the plain port. */
export interface TlsPortOptions {
  /** For the first bytes (a balancer's PROXY header or the ClientHello), and again for the handshake. */
  headerTimeoutMs: number;
  /** Balancers allowed to name the client in a PROXY header before the handshake; from anyone else one is refused. */
  trustedProxies: TrustedProxies;
  clock: Clock;
  logger: Logger;
}

const EMPTY = Buffer.alloc(0);
const ignore = () => {};

/** A connection while it is open: its address and port, the same on the raw socket and on the TLS one over it. */
const connectionKey = (socket: net.Socket) => `${socket.remoteAddress} ${socket.remotePort}`;

/**
 * One TLS port. A balancer passing TLS through (HAProxy in TCP mode with send-proxy) puts its PROXY header before
 * the ClientHello, in clear: the port reads the first bytes itself, takes such a header from a trusted balancer
 * only (the plain port's rules, proxy-protocol.ts), then hands the connection to the TLS server. The handshake
 * within the head timeout; then the decrypted socket goes to the same handler as a plain connection. Connections
 * still in their handshake are kept apart, so closing cuts them too.
 */
export class TlsPort {
  private readonly server: net.Server;
  private readonly tls: tls.Server;
  private readonly handshaking = new Set<net.Socket>();
  /** Client addresses a trusted balancer named, by connection, from its header until the handshake is done. */
  private readonly named = new Map<string, string>();

  constructor(
    credentials: TlsCredentials,
    private readonly options: TlsPortOptions,
    accept: (socket: net.Socket, clientAddress?: string) => void,
  ) {
    this.tls = tls.createServer({
      cert: credentials.cert,
      key: credentials.key,
      handshakeTimeout: options.headerTimeoutMs,
    });
    this.tls.on('secureConnection', (socket: tls.TLSSocket) => {
      const key = connectionKey(socket);
      const address = this.named.get(key);
      this.named.delete(key);
      accept(socket, address);
    });
    // A failed or timed-out handshake: nothing to answer, and Node leaves the socket open unless it is destroyed.
    this.tls.on('tlsClientError', (_err, socket) => socket.destroy());
    this.server = net.createServer((raw) => this.preface(raw));
    this.server.maxConnections = 100_000;
  }

  /** Reads a PROXY header, if any, off the connection's first bytes; the rest starts the TLS handshake. */
  private preface(raw: net.Socket): void {
    const { clock, logger, trustedProxies, headerTimeoutMs } = this.options;
    this.handshaking.add(raw);
    const key = connectionKey(raw);
    // Read now: a balancer's health check may be gone before its header is read, and with it the socket's address.
    const peer = peerOf(raw);
    let head: Buffer = EMPTY;
    const timer = clock.setTimeout(() => raw.destroy(), headerTimeoutMs);
    raw.once('close', () => {
      clock.clear(timer);
      this.handshaking.delete(raw);
      this.named.delete(key);
    });
    // Until the TLS server takes the socket over, its errors end it through 'close'.
    raw.on('error', ignore);
    // Answered in clear, as the header came: the plain port's answers.
    const refuse = (message: string) => reject(raw, errorResponse(1, 400, `Bad request: ${message}`));
    const onData = (chunk: Buffer) => {
      head = head.length ? Buffer.concat([head, chunk]) : chunk;
      let header: ReturnType<typeof parseProxyHeader>;
      try {
        header = parseProxyHeader(head);
      } catch (err) {
        if (!(err instanceof ProxyHeaderError)) throw err;
        clock.clear(timer);
        raw.off('data', onData);
        return refuse(err.message);
      }
      if (header.kind === 'incomplete') return;
      clock.clear(timer);
      raw.off('data', onData);
      raw.pause();
      if (header.kind === 'header') {
        if (!trustedProxies.has(peer)) {
          logger.warn({ remote: peer, tls: true }, 'PROXY header from an address not among CASTER_TRUSTED_PROXIES');
          return refuse('PROXY header from an untrusted address');
        }
        if (header.address) this.named.set(key, header.address);
        head = head.subarray(header.length);
      }
      // The TLS socket reads what is buffered here first (the ClientHello, when it came with the header).
      if (head.length) raw.unshift(head);
      head = EMPTY;
      this.tls.emit('connection', raw);
    };
    raw.on('data', onData);
  }

  listen(port: number, host: string): Promise<net.AddressInfo> {
    return listenOn(this.server, port, host);
  }

  /** New handshakes use these; connections made before keep theirs. */
  setCredentials(credentials: TlsCredentials): void {
    this.tls.setSecureContext({ cert: credentials.cert, key: credentials.key });
  }

  stop(): Promise<void> {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  destroySockets(): void {
    for (const raw of this.handshaking) raw.destroy();
  }
}

/** Whether a connection came in over TLS (a decrypted socket of a TlsPort). */
export const isTls = (socket: object): boolean => (socket as tls.TLSSocket).encrypted === true;

/**
 * Reloads the credentials when either file changes (a renewal replacing them, by rename or in place) and on
 * `reload()` (SIGHUP). A replacement that does not load is logged and the current certificate stays.
 */
export class TlsReloader {
  private readonly listener = () => this.reload();

  constructor(
    private readonly files: TlsFiles,
    private readonly apply: (credentials: TlsCredentials) => void,
    private readonly logger: Logger,
    private readonly now: () => Date,
  ) {
    const interval = files.watchIntervalMs ?? 5000;
    watchFile(files.certFile, { interval, persistent: false }, this.listener);
    watchFile(files.keyFile, { interval, persistent: false }, this.listener);
  }

  reload(): boolean {
    let credentials: TlsCredentials;
    try {
      credentials = loadTlsFiles(this.files, this.now());
    } catch (err) {
      this.logger.error({ err }, 'TLS certificate not reloaded; the current one stays in use');
      return false;
    }
    this.apply(credentials);
    this.logger.info(
      { subject: credentials.subject, validTo: credentials.validTo.toISOString() },
      'TLS certificate loaded',
    );
    return true;
  }

  stop(): void {
    unwatchFile(this.files.certFile, this.listener);
    unwatchFile(this.files.keyFile, this.listener);
  }
}
