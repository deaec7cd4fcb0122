import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** Header names in lower case, folded lines joined, encoded words decoded. */
  headers: Map<string, string>;
  subject: string;
  text: string;
  html: string;
  /** Attachments by file name. */
  attachments: Map<string, Buffer>;
  raw: string;
}

function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), decodeWords(line.slice(colon + 1).trim()));
  }
  return headers;
}

function decodeWords(value: string): string {
  return value.replace(/=\?utf-8\?([QB])\?([^?]*)\?=\s*/gi, (_m, enc: string, data: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('utf8')
      : decodeQuotedPrintable(data.replace(/_/g, ' ')),
  );
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function decodeBody(headers: Map<string, string>, body: string): Buffer {
  const encoding = headers.get('content-transfer-encoding')?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64');
  if (encoding === 'quoted-printable') return Buffer.from(decodeQuotedPrintable(body), 'utf8');
  return Buffer.from(body, 'utf8');
}

/** Walks the MIME tree: text/plain and text/html parts, and attachments. */
function walk(raw: string, into: { text: string; html: string; attachments: Map<string, Buffer> }) {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = parseHeaders(raw.slice(0, split));
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.startsWith('multipart/') && boundary) {
    const parts = body.split(`--${boundary}`).slice(1);
    for (const part of parts) {
      if (part.startsWith('--')) break;
      walk(part.replace(/^\r?\n/, ''), into);
    }
    return;
  }
  const disposition = headers.get('content-disposition') ?? '';
  const filename = /filename="?([^";]+)"?/i.exec(disposition)?.[1];
  const content = decodeBody(headers, body);
  if (filename) into.attachments.set(filename, content);
  else if (type.startsWith('text/html')) into.html = content.toString('utf8');
  else if (type.startsWith('text/plain')) into.text = content.toString('utf8');
}

function parse(raw: string, from: string, to: string[]): ReceivedMail {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = parseHeaders(raw.slice(0, split));
  const into = { text: '', html: '', attachments: new Map<string, Buffer>() };
  walk(raw, into);
  return { from, to, headers, subject: headers.get('subject') ?? '', ...into, raw };
}

/**
 * A real SMTP server on a loopback port (a free one unless given) that keeps every message it accepts. `refuse(n)`
 * makes it answer the next n messages with a temporary failure (451), as a busy mail server does.
 */
export async function startSmtpServer(listenPort = 0) {
  const messages: ReceivedMail[] = [];
  let refusals = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (refusals > 0) {
        refusals--;
        const err = Object.assign(new Error('Try again later'), { responseCode: 451 });
        return callback(err);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const envelope = session.envelope;
        messages.push(
          parse(
            Buffer.concat(chunks).toString('utf8'),
            envelope.mailFrom ? envelope.mailFrom.address : '',
            envelope.rcptTo.map((r) => r.address),
          ),
        );
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    refuse(n: number) {
      refusals = n;
    },
    /** The messages sent to `address`, waiting up to `ms` for at least `count` of them. */
    async to(address: string, count = 1, ms = 10_000): Promise<ReceivedMail[]> {
      const deadline = Date.now() + ms;
      for (;;) {
        const found = messages.filter((m) => m.to.includes(address.toLowerCase()) || m.to.includes(address));
        if (found.length >= count || Date.now() > deadline) return found;
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
