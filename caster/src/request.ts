/** The head of an NTRIP request: a rover's GET, a v1 SOURCE or a v2 POST, before any stream bytes. */

export interface NtripRequest {
  method: 'GET' | 'POST' | 'SOURCE' | 'HEAD' | 'OTHER';
  /** The mountpoint without its leading slash; empty for `GET /`. */
  mountpoint: string;
  /** The raw query after '?', or null; a v2 sourcetable filter lives here. */
  query: string | null;
  /** 2 only with `Ntrip-Version: Ntrip/2.0`, whatever the HTTP version of the request line. */
  ntripVersion: 1 | 2;
  headers: Map<string, string>;
  credentials: { username: string; password: string } | null;
  /** The password of a v1 `SOURCE password /MOUNT` line. */
  sourcePassword: string | null;
}

export class RequestError extends Error {}

/** Finds the end of the head (a blank line); returns the offset of the first byte after it, or -1. */
export function headEnd(buffer: Buffer): number {
  const crlf = buffer.indexOf('\r\n\r\n');
  const lf = buffer.indexOf('\n\n');
  if (crlf >= 0 && (lf < 0 || crlf + 2 <= lf)) return crlf + 4;
  return lf >= 0 ? lf + 2 : -1;
}

function parseBasic(value: string | undefined): NtripRequest['credentials'] {
  if (!value) return null;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(value);
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

function splitTarget(target: string): { mountpoint: string; query: string | null } {
  let path = target;
  // A request through a proxy names the whole URL.
  const absolute = /^[a-z]+:\/\/[^/]*(\/.*)?$/i.exec(path);
  if (absolute) path = absolute[1] ?? '/';
  const q = path.indexOf('?');
  const query = q >= 0 ? path.slice(q + 1) : null;
  if (q >= 0) path = path.slice(0, q);
  return { mountpoint: path.replace(/^\/+/, ''), query };
}

/** Parses the head text (everything before the blank line). Throws RequestError with a reason a person can read. */
export function parseRequestHead(head: string): NtripRequest {
  const lines = head.split(/\r?\n/);
  const requestLine = (lines[0] ?? '').trim();
  if (requestLine === '') throw new RequestError('empty request line');
  const headers = new Map<string, string>();
  for (const line of lines.slice(1)) {
    if (line === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) throw new RequestError(`malformed header line '${line.slice(0, 40)}'`);
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const ntripVersion = /^ntrip\/2\.0$/i.test(headers.get('ntrip-version') ?? '') ? 2 : 1;
  const credentials = parseBasic(headers.get('authorization'));

  const source = /^SOURCE\s+(\S*)\s+(\S+)(?:\s+\S+)?$/i.exec(requestLine);
  if (source) {
    const { mountpoint } = splitTarget(source[2] ?? '');
    return {
      method: 'SOURCE',
      mountpoint,
      query: null,
      ntripVersion: 1,
      headers,
      credentials,
      sourcePassword: source[1] ?? '',
    };
  }
  const http = /^([A-Z]+)\s+(\S+)\s+(HTTP\/1\.[01]|RTSP\/1\.0)$/i.exec(requestLine);
  if (!http) throw new RequestError(`not an NTRIP request line: '${requestLine.slice(0, 60)}'`);
  const verb = (http[1] ?? '').toUpperCase();
  const method = verb === 'GET' || verb === 'POST' || verb === 'HEAD' ? verb : 'OTHER';
  const { mountpoint, query } = splitTarget(http[2] ?? '/');
  return { method, mountpoint, query, ntripVersion, headers, credentials, sourcePassword: null };
}
