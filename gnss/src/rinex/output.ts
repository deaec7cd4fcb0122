/**
 * A text file written through a temporary name beside it and renamed into place only when complete, so a failed or
 * interrupted conversion never leaves a partial RINEX file. Optionally gzip-compressed. Writes are buffered and
 * respect back-pressure, so memory stays flat whatever the length of the output.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';

/**
 * Text is gathered in blocks of this size and handed to the stream a block at a time: few large writes, and a
 * few blocks reused instead of one allocation per line.
 */
const BLOCK = 1024 * 1024;

export class AtomicTextFile {
  private readonly tmp: string;
  private readonly file: WriteStream;
  private readonly sink: Writable;
  /** The block being filled: formatters write bytes at `pos` after asking for room(). */
  buf: Buffer = Buffer.allocUnsafe(BLOCK);
  pos = 0;
  private readonly full: Buffer[] = [];
  private readonly spare: Buffer[] = [];
  private failure: Error | null = null;

  constructor(
    readonly path: string,
    gzip = path.endsWith('.gz'),
  ) {
    this.tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.part`);
    this.file = createWriteStream(this.tmp, { flags: 'wx', mode: 0o644 });
    this.file.on('error', (e) => {
      this.failure ??= e;
    });
    if (gzip) {
      const z = createGzip();
      z.on('error', (e) => {
        this.failure ??= e;
      });
      z.pipe(this.file);
      this.sink = z;
    } else {
      this.sink = this.file;
    }
  }

  /** Makes sure `bytes` more bytes fit in `buf` after `pos`, starting a new block when they do not. */
  room(bytes: number): void {
    if (this.pos + bytes > this.buf.length) this.nextBlock(bytes);
  }

  private nextBlock(bytes: number): void {
    if (this.pos > 0) this.full.push(this.buf.subarray(0, this.pos));
    this.buf = bytes <= BLOCK ? (this.spare.pop() ?? Buffer.allocUnsafe(BLOCK)) : Buffer.allocUnsafe(bytes);
    this.pos = 0;
  }

  /** Queues text (UTF-8); call drain() now and then (the converter does after each chunk of input). */
  write(text: string): void {
    this.room(text.length * 3);
    this.pos += this.buf.write(text, this.pos, 'utf8');
  }

  /** Hands the filled blocks to the stream, waiting while the stream is full; `force` also the one being filled. */
  async drain(force = false): Promise<void> {
    if (this.failure) throw this.failure;
    if (force && this.pos > 0) this.nextBlock(0);
    while (this.full.length > 0) {
      const block = this.full.shift() as Buffer;
      // A block goes back to the spares once the stream is done with it (zlib, too, has consumed it by then).
      const done = () => {
        if (block.buffer.byteLength === BLOCK && this.spare.length < 2) this.spare.push(Buffer.from(block.buffer));
      };
      if (!this.sink.write(block, done)) await this.writable();
      if (this.failure) throw this.failure;
    }
  }

  /** Resolves when the stream wants more, or has failed (the failure is kept and thrown by the caller). */
  private writable(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.sink.off('drain', done);
        this.file.off('error', done);
        this.sink.off('error', done);
        resolve();
      };
      this.sink.on('drain', done);
      this.file.on('error', done);
      this.sink.on('error', done);
    });
  }

  /** Flushes, closes and renames the file into place. */
  async commit(): Promise<void> {
    await this.drain(true);
    const closed = once(this.file, 'close');
    this.sink.end();
    await closed;
    if (this.failure) throw this.failure;
    await rename(this.tmp, this.path);
  }

  /** Closes and removes the temporary file; the destination is left as it was. */
  async abort(): Promise<void> {
    const closed = this.file.closed ? Promise.resolve() : once(this.file, 'close').catch(() => undefined);
    this.sink.destroy();
    this.file.destroy();
    await closed;
    await unlink(this.tmp).catch(() => undefined);
  }
}
