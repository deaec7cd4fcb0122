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

const FLUSH_AT = 64 * 1024;

export class AtomicTextFile {
  private readonly tmp: string;
  private readonly file: WriteStream;
  private readonly sink: Writable;
  private buffer: string[] = [];
  private buffered = 0;
  private failure: Error | null = null;
  /** Characters handed to write(). */
  written = 0;

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

  /** Queues text; call drain() now and then (the converter does after each epoch). */
  write(text: string): void {
    this.buffer.push(text);
    this.buffered += text.length;
    this.written += text.length;
  }

  /** Hands buffered text to the stream once enough has gathered, waiting while the stream is full. */
  async drain(force = false): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.buffered === 0 || (!force && this.buffered < FLUSH_AT)) return;
    const chunk = this.buffer.join('');
    this.buffer = [];
    this.buffered = 0;
    if (!this.sink.write(chunk)) await this.writable();
    if (this.failure) throw this.failure;
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
