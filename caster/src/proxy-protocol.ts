import { BlockList, isIP } from 'node:net';

/**
 * The PROXY protocol (HAProxy's, versions 1 and 2): a balancer in TCP mode puts the client's address in front of
 * the bytes it relays, so the caster can throttle, limit and log the rover rather than the balancer.
 * https://www.haproxy.org/download/2.6/doc/proxy-protocol.txt
 */

const V1_PREFIX = Buffer.from('PROXY ', 'latin1');
const V2_SIGNATURE = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a]);
/** "PROXY UNKNOWN ffff:…:ffff ffff:…:ffff 65535 65535\r\n": the longest line the specification allows. */
const V1_MAX = 107;
/** Addresses (216 bytes for unix sockets) and the TLVs a balancer may add (ALPN, authority, unique id). */
const V2_MAX = 16 + 1024;

export class ProxyHeaderError extends Error {}

export type ProxyHeader =
  /** The connection does not start with a PROXY header. */
  | { kind: 'absent' }
  /** It may: more bytes are needed to tell. */
  | { kind: 'incomplete' }
  /**
   * A whole header of `length` bytes. `address` is the client's; null when the balancer speaks for itself
   * (v2 LOCAL, e.g. its health checks; v1 UNKNOWN) and the connection's own address stands.
   */
  | { kind: 'header'; length: number; address: string | null };

/** Whether `data` starts with `prefix`, or is too short to say it does not. */
function startsLike(data: Buffer, prefix: Buffer): boolean {
  const n = Math.min(data.length, prefix.length);
  return data.subarray(0, n).equals(prefix.subarray(0, n));
}

function port(text: string): boolean {
  return /^(0|[1-9]\d{0,4})$/.test(text) && Number(text) <= 65535;
}

function parseV1(data: Buffer): ProxyHeader {
  const end = data.indexOf('\r\n', 0, 'latin1');
  if (end < 0) {
    if (data.length >= V1_MAX) throw new ProxyHeaderError('PROXY v1 line longer than 107 bytes');
    return { kind: 'incomplete' };
  }
  if (end + 2 > V1_MAX) throw new ProxyHeaderError('PROXY v1 line longer than 107 bytes');
  const fields = data.subarray(0, end).toString('latin1').split(' ');
  const length = end + 2;
  if (fields[1] === 'UNKNOWN') return { kind: 'header', length, address: null };
  const [, protocol, source, destination, sourcePort, destinationPort, ...extra] = fields;
  const family = protocol === 'TCP4' ? 4 : protocol === 'TCP6' ? 6 : 0;
  if (
    !family ||
    extra.length > 0 ||
    isIP(source ?? '') !== family ||
    isIP(destination ?? '') !== family ||
    !port(sourcePort ?? '') ||
    !port(destinationPort ?? '')
  ) {
    throw new ProxyHeaderError('malformed PROXY v1 line');
  }
  return { kind: 'header', length, address: source as string };
}

function ipv6(bytes: Buffer): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(bytes.readUInt16BE(i).toString(16));
  return groups.join(':');
}

function parseV2(data: Buffer): ProxyHeader {
  if (data.length < 16) return { kind: 'incomplete' };
  const versionCommand = data[12] as number;
  if (versionCommand >> 4 !== 2) throw new ProxyHeaderError('PROXY v2 header of an unknown version');
  const command = versionCommand & 0x0f;
  if (command > 1) throw new ProxyHeaderError('PROXY v2 header with an unknown command');
  const family = data[13] as number;
  const addressLength = data.readUInt16BE(14);
  const length = 16 + addressLength;
  if (length > V2_MAX) throw new ProxyHeaderError('PROXY v2 header longer than 1040 bytes');
  if (data.length < length) return { kind: 'incomplete' };
  // LOCAL: the balancer's own connection (a health check); whatever addresses follow are not a client's.
  if (command === 0) return { kind: 'header', length, address: null };
  const body = data.subarray(16, length);
  switch (family) {
    case 0x11: // TCP over IPv4
      if (addressLength < 12) throw new ProxyHeaderError('PROXY v2 IPv4 addresses cut short');
      return { kind: 'header', length, address: `${body[0]}.${body[1]}.${body[2]}.${body[3]}` };
    case 0x21: // TCP over IPv6
      if (addressLength < 36) throw new ProxyHeaderError('PROXY v2 IPv6 addresses cut short');
      return { kind: 'header', length, address: ipv6(body.subarray(0, 16)) };
    case 0x00: // UNSPEC: the balancer does not know; the connection's address stands
      return { kind: 'header', length, address: null };
    default:
      // NTRIP runs over TCP; a UDP or unix-socket client address says the balancer is set up wrong.
      throw new ProxyHeaderError('PROXY v2 header for a transport other than TCP');
  }
}

/** Reads a PROXY header (v1 or v2) at the start of a connection's first bytes. */
export function parseProxyHeader(data: Buffer): ProxyHeader {
  if (data.length === 0) return { kind: 'incomplete' };
  if (startsLike(data, V1_PREFIX)) {
    return data.length < V1_PREFIX.length ? { kind: 'incomplete' } : parseV1(data);
  }
  if (startsLike(data, V2_SIGNATURE)) {
    return data.length < V2_SIGNATURE.length ? { kind: 'incomplete' } : parseV2(data);
  }
  return { kind: 'absent' };
}

/**
 * The balancers whose PROXY headers are believed: addresses and CIDR ranges (IPv4 or IPv6). Anyone else who sends
 * one is refused, or a client could name any address and so escape its own throttle and limits.
 */
export class TrustedProxies {
  private readonly list = new BlockList();
  readonly empty: boolean;

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const [address = '', prefix, ...rest] = entry.split('/');
      const family = isIP(address);
      const bits = Number(prefix);
      if (!family || rest.length || (prefix !== undefined && !/^\d+$/.test(prefix)) || bits > (family === 4 ? 32 : 128))
        throw new Error(`${entry} is not an address or CIDR range`);
      const type = family === 4 ? 'ipv4' : 'ipv6';
      if (prefix === undefined) this.list.addAddress(address, type);
      else this.list.addSubnet(address, bits, type);
    }
    this.empty = entries.length === 0;
  }

  has(address: string): boolean {
    const family = isIP(address);
    return family !== 0 && this.list.check(address, family === 4 ? 'ipv4' : 'ipv6');
  }
}
