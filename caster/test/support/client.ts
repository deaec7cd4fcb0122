import { readFileSync } from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import { ChunkedDecoder } from '../../src/index.ts';

export const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url));

/** A raw TCP peer of the caster that keeps every byte it receives. */
export class Peer {
  /** Bytes received so far, without joining them (cheap to poll while megabytes arrive). */
  length = 0;
  closed = false;
  private chunks: Buffer[] = [];
  private waiters: Array<() => void> = [];

  constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.chunks.push(chunk);
      this.length += chunk.length;
      this.wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => {});
  }

  /** `localAddress` (another 127.0.0.x) stands for a client behind a different public address. */
  static connect(port: number, localAddress?: string): Promise<Peer> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ port, host: '127.0.0.1', localAddress }, () => resolve(new Peer(socket)));
      socket.once('error', reject);
    });
  }

  /** Over TLS, trusting only `ca` (the caster's self-signed certificate) for the name localhost; null: any. */
  static connectTls(port: number, ca: string | null): Promise<Peer> {
    return new Promise((resolve, reject) => {
      const trust = ca === null ? { rejectUnauthorized: false } : { ca };
      const socket = tls.connect({ port, host: '127.0.0.1', servername: 'localhost', ...trust }, () =>
        resolve(new Peer(socket)),
      );
      socket.once('error', reject);
    });
  }

  get received(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0] ?? Buffer.alloc(0);
  }

  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Resolves when the condition holds; rejects with what was received so far when it does not within the limit. */
  async until(condition: (p: Peer) => boolean, what: string, limitMs = 5000): Promise<void> {
    const deadline = Date.now() + limitMs;
    while (!condition(this)) {
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(
          `timed out waiting for ${what}; received ${this.received.length} bytes: ${JSON.stringify(this.received.subarray(0, 200).toString('latin1'))}`,
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  text(): string {
    return this.received.toString('latin1');
  }

  /** Bytes after the response head (the blank line). */
  body(): Buffer {
    const end = this.received.indexOf('\r\n\r\n');
    return end < 0 ? Buffer.alloc(0) : this.received.subarray(end + 4);
  }

  async closedWith(what: string, limitMs = 5000): Promise<string> {
    await this.until((p) => p.closed, what, limitMs);
    return this.text();
  }

  write(data: string | Buffer): void {
    this.socket.write(data);
  }

  close(): void {
    this.socket.destroy();
  }
}

export const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

export function roverRequest(mountpoint: string, version: 1 | 2, credentials?: [string, string], extra: string[] = []) {
  const lines = [
    `GET /${mountpoint} ${version === 2 ? 'HTTP/1.1' : 'HTTP/1.0'}`,
    ...(version === 2 ? ['Host: 127.0.0.1', 'Ntrip-Version: Ntrip/2.0'] : []),
    'User-Agent: NTRIP test-rover',
    ...(credentials ? [`Authorization: ${basic(credentials[0], credentials[1])}`] : []),
    ...extra,
  ];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** Splits a chunked body into its chunks; throws when the framing is wrong. */
export function dechunk(body: Buffer): Buffer[] {
  const chunks: Buffer[] = [];
  new ChunkedDecoder((d) => chunks.push(Buffer.from(d))).push(body);
  return chunks;
}

/** Writes bytes in uneven pieces so frames straddle socket reads. */
export async function writeInPieces(peer: Peer, data: Buffer, sizes = [1, 7, 100, 333, 1500, 4096]): Promise<void> {
  let offset = 0;
  let i = 0;
  while (offset < data.length) {
    const size = sizes[i++ % sizes.length] as number;
    peer.write(data.subarray(offset, offset + size));
    offset += size;
    await new Promise((r) => setImmediate(r));
  }
}
