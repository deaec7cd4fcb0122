/** Decodes HTTP/1.1 chunked transfer encoding as bytes arrive (NTRIP 2 POST bodies, NTRIP 2 upstream casters). */
export class ChunkedDecoder {
  private state: 'size' | 'data' | 'data-end' | 'trailer' | 'done' = 'size';
  private line = '';
  private remaining = 0;

  constructor(
    private readonly onData: (data: Buffer) => void,
    private readonly onEnd: () => void = () => {},
  ) {}

  /** Throws an Error naming what was wrong; the caller closes the connection. */
  push(chunk: Buffer): void {
    let i = 0;
    while (i < chunk.length && this.state !== 'done') {
      if (this.state === 'data') {
        const take = Math.min(this.remaining, chunk.length - i);
        this.onData(chunk.subarray(i, i + take));
        this.remaining -= take;
        i += take;
        if (this.remaining === 0) this.state = 'data-end';
        continue;
      }
      const byte = chunk[i++] as number;
      if (this.state === 'data-end' && byte !== 0x0d && byte !== 0x0a)
        throw new Error('chunk data not followed by CRLF');
      if (byte !== 0x0a) {
        if (byte !== 0x0d) this.line += String.fromCharCode(byte);
        if (this.line.length > 256) throw new Error('chunk header line longer than 256 bytes');
        continue;
      }
      const line = this.line;
      this.line = '';
      if (this.state === 'data-end') {
        if (line !== '') throw new Error('chunk data not followed by CRLF');
        this.state = 'size';
      } else if (this.state === 'size') {
        const size = /^([0-9a-fA-F]{1,8})(?:;.*)?$/.exec(line.trim());
        if (!size?.[1]) throw new Error(`bad chunk size line '${line.slice(0, 20)}'`);
        this.remaining = Number.parseInt(size[1], 16);
        this.state = this.remaining === 0 ? 'trailer' : 'data';
      } else if (this.state === 'trailer' && line === '') {
        this.state = 'done';
        this.onEnd();
      }
    }
  }
}
