import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import type net from 'node:net';
import tls from 'node:tls';
import { listenOn } from './connection.ts';
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

/**
 * One TLS port: the handshake within the head timeout, then the decrypted socket goes to the same handler as a
 * plain connection. Connections still in their handshake are kept apart, so closing cuts them too.
 */
export class TlsPort {
  private readonly server: tls.Server;
  private readonly handshaking = new Set<net.Socket>();

  constructor(credentials: TlsCredentials, handshakeTimeoutMs: number, accept: (socket: net.Socket) => void) {
    this.server = tls.createServer({
      cert: credentials.cert,
      key: credentials.key,
      handshakeTimeout: handshakeTimeoutMs,
    });
    this.server.on('connection', (raw: net.Socket) => {
      this.handshaking.add(raw);
      raw.once('close', () => this.handshaking.delete(raw));
    });
    this.server.on('secureConnection', (socket: tls.TLSSocket) => accept(socket));
    // A failed or timed-out handshake: nothing to answer, and Node leaves the socket open unless it is destroyed.
    this.server.on('tlsClientError', (_err, socket) => socket.destroy());
    this.server.maxConnections = 100_000;
  }

  listen(port: number, host: string): Promise<net.AddressInfo> {
    return listenOn(this.server, port, host);
  }

  /** New handshakes use these; connections made before keep theirs. */
  setCredentials(credentials: TlsCredentials): void {
    this.server.setSecureContext({ cert: credentials.cert, key: credentials.key });
  }

  stop(): Promise<void> {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  destroySockets(): void {
    for (const raw of this.handshaking) raw.destroy();
  }
}

/** Whether a connection came in over TLS (a decrypted socket of a TlsPort). */
export const isTls = (socket: net.Socket): boolean => (socket as tls.TLSSocket).encrypted === true;

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
