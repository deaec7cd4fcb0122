import { afterEach, describe, expect, it } from 'vitest';
import { type Caster, createCaster, type RefusalRecord } from '../src/index.ts';
import { parseProxyHeader, TrustedProxies } from '../src/proxy-protocol.ts';
import { Peer, roverRequest } from './support/client.ts';
import { FakePorts } from './support/fakes.ts';
import { forTransport, plainPort, TRANSPORTS } from './support/transports.ts';
import { until } from './support/wait.ts';

const SIGNATURE = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a]);

/** A v2 header as HAProxy's send-proxy-v2 writes it: PROXY command, TCP over IPv4 or IPv6, then `tlvs`. */
function v2(source: number[], destination: number[], ports: [number, number], tlvs = Buffer.alloc(0)): Buffer {
  const ipv6 = source.length === 16;
  const addresses = Buffer.concat([Buffer.from(source), Buffer.from(destination), Buffer.alloc(4)]);
  addresses.writeUInt16BE(ports[0], addresses.length - 4);
  addresses.writeUInt16BE(ports[1], addresses.length - 2);
  const head = Buffer.from([0x21, ipv6 ? 0x21 : 0x11, 0, 0]);
  head.writeUInt16BE(addresses.length + tlvs.length, 2);
  return Buffer.concat([SIGNATURE, head, addresses, tlvs]);
}

describe('PROXY protocol header', () => {
  it('reads the client address of a v1 line, TCP4 and TCP6, and its length', () => {
    const line = 'PROXY TCP4 203.0.113.7 192.0.2.1 51000 2101\r\n';
    expect(parseProxyHeader(Buffer.from(`${line}GET / HTTP/1.0\r\n`))).toEqual({
      kind: 'header',
      length: line.length,
      address: '203.0.113.7',
    });
    expect(parseProxyHeader(Buffer.from('PROXY TCP6 2001:db8::7 2001:db8::1 51000 2101\r\n'))).toMatchObject({
      address: '2001:db8::7',
    });
    // UNKNOWN: the balancer does not know the client; the connection's own address stands.
    expect(parseProxyHeader(Buffer.from('PROXY UNKNOWN\r\n'))).toEqual({ kind: 'header', length: 15, address: null });
  });

  it('reads a v2 header, IPv4 and IPv6, skipping the TLVs HAProxy may add', () => {
    const header = v2([198, 51, 100, 23], [127, 0, 0, 1], [40000, 2101], Buffer.from([0x01, 0x00, 0x02, 0x68, 0x32]));
    expect(parseProxyHeader(Buffer.concat([header, Buffer.from('GET /')]))).toEqual({
      kind: 'header',
      length: header.length,
      address: '198.51.100.23',
    });
    const six = v2([0x20, 0x01, 0x0d, 0xb8, ...Array(11).fill(0), 9], Array(16).fill(0), [1, 2]);
    expect(parseProxyHeader(six)).toEqual({ kind: 'header', length: 16 + 36, address: '2001:db8:0:0:0:0:0:9' });
  });

  it('takes a v2 LOCAL header (a health check) without a client address', () => {
    const local = Buffer.concat([SIGNATURE, Buffer.from([0x20, 0x00, 0x00, 0x00])]);
    expect(parseProxyHeader(local)).toEqual({ kind: 'header', length: 16, address: null });
  });

  it('waits for more bytes while the header may still come, and says when there is none', () => {
    expect(parseProxyHeader(Buffer.from('PRO'))).toEqual({ kind: 'incomplete' });
    expect(parseProxyHeader(Buffer.from('PROXY TCP4 1.2.3.4'))).toEqual({ kind: 'incomplete' });
    expect(parseProxyHeader(SIGNATURE.subarray(0, 5))).toEqual({ kind: 'incomplete' });
    expect(parseProxyHeader(v2([1, 2, 3, 4], [5, 6, 7, 8], [1, 2]).subarray(0, 20))).toEqual({ kind: 'incomplete' });
    expect(parseProxyHeader(Buffer.from('POST /AMS1 HTTP/1.1\r\n'))).toEqual({ kind: 'absent' });
    expect(parseProxyHeader(Buffer.from('GET / HTTP/1.0\r\n'))).toEqual({ kind: 'absent' });
    expect(parseProxyHeader(Buffer.from('SOURCE pw /AMS1\r\n'))).toEqual({ kind: 'absent' });
  });

  it.each([
    ['a v1 line longer than the specification allows', Buffer.from(`PROXY TCP4 ${'1'.repeat(120)}`)],
    ['a v1 address of the wrong family', Buffer.from('PROXY TCP4 2001:db8::1 192.0.2.1 1 2\r\n')],
    ['a v1 port out of range', Buffer.from('PROXY TCP4 192.0.2.7 192.0.2.1 70000 2101\r\n')],
    ['a v1 port with a leading zero', Buffer.from('PROXY TCP4 192.0.2.7 192.0.2.1 0123 2101\r\n')],
    ['a v1 line with a field too many', Buffer.from('PROXY TCP4 192.0.2.7 192.0.2.1 1 2 3\r\n')],
    ['a v1 protocol other than TCP', Buffer.from('PROXY UDP4 192.0.2.7 192.0.2.1 1 2\r\n')],
    ['a v2 header of version 3', Buffer.concat([SIGNATURE, Buffer.from([0x31, 0x11, 0, 12]), Buffer.alloc(12)])],
    [
      'a v2 header with an unknown command',
      Buffer.concat([SIGNATURE, Buffer.from([0x22, 0x11, 0, 12]), Buffer.alloc(12)]),
    ],
    ['a v2 IPv4 header cut short', Buffer.concat([SIGNATURE, Buffer.from([0x21, 0x11, 0, 4]), Buffer.alloc(4)])],
    ['a v2 header for UDP', Buffer.concat([SIGNATURE, Buffer.from([0x21, 0x12, 0, 12]), Buffer.alloc(12)])],
    ['a v2 header longer than 1040 bytes', Buffer.concat([SIGNATURE, Buffer.from([0x21, 0x11, 0x10, 0x00])])],
  ])('refuses %s', (_, data) => {
    expect(() => parseProxyHeader(data)).toThrow(/PROXY/);
  });

  it('trusts exactly the configured addresses and ranges', () => {
    const trusted = new TrustedProxies(['10.0.0.5', '192.168.10.0/24', 'fd00::/8']);
    expect(['10.0.0.5', '192.168.10.77', 'fd12::1'].map((a) => trusted.has(a))).toEqual([true, true, true]);
    expect(['10.0.0.6', '192.168.11.1', 'fe80::1', 'unknown'].map((a) => trusted.has(a))).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(() => new TrustedProxies(['balancer.example'])).toThrow(/not an address/);
    expect(() => new TrustedProxies(['10.0.0.0/33'])).toThrow(/not an address/);
  });
});

const open: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close();
});

class RecordingPorts extends FakePorts {
  refusals: RefusalRecord[] = [];
  constructor() {
    super();
    this.usage = {
      ...this.usage,
      recordRefusals: async (records: RefusalRecord[]) => void this.refusals.push(...records),
    } as FakePorts['usage'];
    this.addNetwork('nl').addStation('AMS1', 'nl', 52.37, 4.9);
    this.accounts.push({ username: 'alice', password: 'alice-pw', accountId: 'acc-alice', networks: ['nl'] });
  }
}

/** A caster that trusts the balancer at 127.0.0.2; test clients on 127.0.0.3 stand for anyone else. */
async function start() {
  const ports = new RecordingPorts();
  const caster: Caster = await createCaster({
    ports,
    trustedProxies: ['127.0.0.2'],
    logger: { info() {}, warn() {}, error() {} },
    limits: { refusalFlushMs: 50, sessionFlushMs: 50 },
    ...plainPort,
  });
  open.push(caster);
  const { port } = await caster.listen(0, '127.0.0.1');
  return { port, ports };
}

async function connect(port: number, from: string, data: Buffer | string) {
  const peer = await Peer.connect(port, from);
  open.push(peer);
  peer.write(data);
  return peer;
}

describe.each(TRANSPORTS)('the plain port through %s', (transport) => {
  forTransport(transport);

  describe('the caster behind a balancer', () => {
    it.each([
      ['v1', Buffer.from('PROXY TCP4 203.0.113.7 127.0.0.1 51000 2101\r\n')],
      ['v2', v2([203, 0, 113, 7], [127, 0, 0, 1], [51000, 2101])],
    ])('records the session and the refused attempt under the address a trusted %s header names', async (_, header) => {
      const { port, ports } = await start();
      const refused = await connect(
        port,
        '127.0.0.2',
        Buffer.concat([header, Buffer.from(roverRequest('AMS1', 2, ['alice', 'wrong']))]),
      );
      await refused.closedWith('the refusal');
      const served = await connect(
        port,
        '127.0.0.2',
        Buffer.concat([header, Buffer.from(roverRequest('AMS1', 1, ['alice', 'alice-pw']))]),
      );
      await served.until((p) => p.text().startsWith('ICY 200 OK'), 'the login');
      served.close();
      await until(() => ports.sessions.length > 0 && ports.refusals.length > 0, 'the session and the refusal');
      expect(new Set([...ports.sessions, ...ports.refusals].map((r) => r.remoteAddress))).toEqual(
        new Set(['203.0.113.7']),
      );
    });

    it('throttles the rover that guessed, not every rover behind the balancer', async () => {
      const { port } = await start();
      const from = (address: string) => `PROXY TCP4 ${address} 127.0.0.1 51000 2101\r\n`;
      for (let i = 0; i < 6; i++) {
        const wrong = await connect(
          port,
          '127.0.0.2',
          from('203.0.113.66') + roverRequest('AMS1', 1, ['alice', 'bad']),
        );
        await wrong.closedWith('the refusal');
      }
      const guesser = await connect(
        port,
        '127.0.0.2',
        from('203.0.113.66') + roverRequest('AMS1', 1, ['alice', 'alice-pw']),
      );
      expect(await guesser.closedWith('the throttled login')).toMatch(/429|403|401/);
      const other = await connect(
        port,
        '127.0.0.2',
        from('203.0.113.67') + roverRequest('AMS1', 1, ['alice', 'alice-pw']),
      );
      await other.until((p) => p.text().startsWith('ICY 200 OK'), 'the other rover served');
    });

    it('refuses a PROXY header from an address it does not trust, and records nothing under the named address', async () => {
      const { port, ports } = await start();
      const spoofed = await connect(
        port,
        '127.0.0.3',
        `PROXY TCP4 203.0.113.9 127.0.0.1 51000 2101\r\n${roverRequest('AMS1', 1, ['alice', 'alice-pw'])}`,
      );
      expect(await spoofed.closedWith('the refusal')).toMatch(
        /^(ICY|HTTP\/1\.[01]) 400[\s\S]*PROXY header from an untrusted address/,
      );
      expect(ports.sessions).toEqual([]);
    });

    it('serves the balancer’s own connections without a header, and refuses a malformed one', async () => {
      const { port, ports } = await start();
      const direct = await connect(port, '127.0.0.2', roverRequest('AMS1', 1, ['alice', 'alice-pw']));
      await direct.until((p) => p.text().startsWith('ICY 200 OK'), 'the login');
      direct.close();
      await until(() => ports.sessions.length === 1, 'the session');
      expect(ports.sessions[0]?.remoteAddress).toBe('127.0.0.2');
      const broken = await connect(
        port,
        '127.0.0.2',
        'PROXY TCP4 999.0.0.1 127.0.0.1 1 2\r\nGET /AMS1 HTTP/1.0\r\n\r\n',
      );
      expect(await broken.closedWith('the refusal')).toMatch(/400[\s\S]*malformed PROXY v1 line/);
    });
  });
});
