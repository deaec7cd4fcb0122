import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type tls from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type Caster,
  type CasterLimits,
  createCaster,
  type RefusalRecord,
  TlsConfigError,
  validFrames,
} from '../src/index.ts';
import { localhostCertificate, type TestCertificate, writeCertificate } from './support/certificates.ts';
import { dechunk, fixture, Peer, roverRequest, writeInPieces } from './support/client.ts';
import { FakePorts } from './support/fakes.ts';
import { until } from './support/wait.ts';

const capture = fixture('oem729_hiroshima_20221213_msm7_alleph.rtcm3').subarray(0, 30_000);
const framesBytes = Buffer.concat(validFrames(capture));

const open: Array<{ close(): unknown }> = [];
let dir: string;
let certificate: TestCertificate;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'caster-tls-'));
  certificate = await localhostCertificate();
});
afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close();
});

class TlsPorts extends FakePorts {
  refusals: RefusalRecord[] = [];
  constructor() {
    super();
    this.addNetwork('nl').addStation('AMS1', 'nl', 52.37, 4.9).addStation('UTR1', 'nl', 52.09, 5.12);
    this.accounts.push({
      username: 'alice',
      password: 'alice-pw',
      accountId: 'acc-alice',
      networks: ['nl'],
      maxConnections: 10,
    });
    this.usage = {
      ...this.usage,
      recordRefusals: async (records: RefusalRecord[]) => void this.refusals.push(...records),
    } as FakePorts['usage'];
  }
}

async function start(limits: Partial<CasterLimits> = {}, subdir = 'default', trustedProxies: string[] = []) {
  const files = await writeCertificate(await mkdtemp(join(dir, subdir)), certificate);
  const ports = new TlsPorts();
  const caster: Caster = await createCaster({
    ports,
    limits: { refusalFlushMs: 50, sessionFlushMs: 50, ...limits },
    tls: { ...files, watchIntervalMs: 50 },
    trustedProxies,
    logger: { info() {}, warn() {}, error() {} },
  });
  open.push(caster);
  const { port } = await caster.listen(0, '127.0.0.1');
  const { port: tlsPort } = await caster.listenTls(0, '127.0.0.1');
  const track = (peer: Peer) => {
    open.push(peer);
    return peer;
  };
  return {
    caster,
    ports,
    files,
    plain: async () => track(await Peer.connect(port)),
    secure: async (ca: string | null = certificate.cert) => track(await Peer.connectTls(tlsPort, ca)),
    /** Over TLS through a balancer listening on `port`. */
    secureVia: async (port: number) => track(await Peer.connectTls(port, certificate.cert)),
    tlsPort,
  };
}

async function rover(peer: Peer, mountpoint: string, version: 1 | 2) {
  peer.write(roverRequest(mountpoint, version, ['alice', 'alice-pw']));
  await peer.until((p) => p.text().includes('\r\n\r\n'), 'rover answer');
  return peer;
}

/** The RTCM a rover received: raw for NTRIP 1, dechunked for NTRIP 2. */
const rtcm = (peer: Peer, version: 1 | 2) => (version === 2 ? Buffer.concat(dechunk(peer.body())) : peer.body());

describe('NTRIP over TLS', () => {
  it('relays a source pushing over TLS byte-exact to NTRIP 1 and 2 rovers on the plain and the TLS port', async () => {
    const ctx = await start();
    const rovers = [
      { peer: await rover(await ctx.plain(), 'AMS1', 1), version: 1 as const },
      { peer: await rover(await ctx.plain(), 'AMS1', 2), version: 2 as const },
      { peer: await rover(await ctx.secure(), 'AMS1', 1), version: 1 as const },
      { peer: await rover(await ctx.secure(), 'AMS1', 2), version: 2 as const },
    ];
    expect(rovers[2]?.peer.text()).toBe('ICY 200 OK\r\n\r\n');
    expect(rovers[3]?.peer.text()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    const source = await ctx.secure();
    source.write('SOURCE src-secret /AMS1\r\nSource-Agent: NTRIP test-source\r\n\r\n');
    await source.until((p) => p.text() === 'ICY 200 OK\r\n\r\n', 'source answer');
    await writeInPieces(source, capture);
    for (const { peer, version } of rovers) {
      await peer.until((p) => rtcm(p, version).length >= framesBytes.length, `all frames (NTRIP ${version})`);
      expect(rtcm(peer, version).equals(framesBytes)).toBe(true);
    }
    // An NTRIP 2 source over TLS is relayed the same way.
    const plainRover = await rover(await ctx.plain(), 'UTR1', 1);
    const tlsRover = await rover(await ctx.secure(), 'UTR1', 2);
    const post = await ctx.secure();
    post.write(
      `POST /UTR1 HTTP/1.1\r\nHost: localhost\r\nNtrip-Version: Ntrip/2.0\r\nAuthorization: Basic ${Buffer.from(':src-secret').toString('base64')}\r\n\r\n`,
    );
    await post.until((p) => p.text().startsWith('HTTP/1.1 200 OK\r\n'), 'POST answer');
    await writeInPieces(post, capture);
    await plainRover.until((p) => p.body().length >= framesBytes.length, 'frames on the plain port');
    await tlsRover.until((p) => rtcm(p, 2).length >= framesBytes.length, 'frames on the TLS port');
    expect(plainRover.body().equals(framesBytes)).toBe(true);
    expect(rtcm(tlsRover, 2).equals(framesBytes)).toBe(true);
  });

  it('serves the sourcetable and shows TLS in live sessions and refused attempts', async () => {
    const ctx = await start({ firstDataWaitMs: 60_000 });
    const table = await ctx.secure();
    table.write('GET / HTTP/1.0\r\nUser-Agent: NTRIP test\r\n\r\n');
    expect(await table.closedWith('sourcetable')).toMatch(/^SOURCETABLE 200 OK\r\n[\s\S]*STR;AMS1;/);
    await rover(await ctx.secure(), 'AMS1', 1);
    // Offline at login: listed as refused at once, as a plain-port attempt.
    await rover(await ctx.plain(), 'UTR1', 1);
    const { nodes } = await ctx.caster.live({ sessions: { all: true } });
    const sessions = nodes.flatMap((n) => n.sessions ?? []);
    expect(sessions.map((s) => [s.mountpoint, s.tls]).sort()).toEqual([
      ['AMS1', true],
      ['UTR1', false],
    ]);
    const wrong = await ctx.secure();
    wrong.write(roverRequest('AMS1', 2, ['alice', 'wrong']));
    await wrong.closedWith('refusal over TLS');
    const seen = () => [...new Set(ctx.ports.refusals.map((r) => `${r.mountpoint} ${r.tls}`))].sort();
    await until(
      () => seen().length >= 2,
      () => `the refusals: ${JSON.stringify(ctx.ports.refusals)}`,
    );
    expect(seen()).toEqual(['AMS1 true', 'UTR1 false']);
  });

  it('refuses to start with a certificate that expired, a key of another certificate or a missing file', async () => {
    const expired = await localhostCertificate(-1);
    const other = await localhostCertificate();
    const attempt = async (cert: string, key: string, name: string) => {
      const files = await writeCertificate(await mkdtemp(join(dir, name)), { ...certificate, cert, key });
      return createCaster({ ports: new TlsPorts(), tls: files });
    };
    await expect(attempt(expired.cert, expired.key, 'expired')).rejects.toThrow(
      /^TLS certificate \S+cert\.pem expired on \d{4}-\d\d-\d\dT[\d:.]+Z; renew it$/,
    );
    await expect(attempt(certificate.cert, other.key, 'mismatch')).rejects.toThrow(
      /^TLS key \S+key\.pem is not the key of the certificate \S+cert\.pem$/,
    );
    await expect(attempt('not a certificate', certificate.key, 'garbage')).rejects.toThrow(TlsConfigError);
    await expect(
      createCaster({ ports: new TlsPorts(), tls: { certFile: join(dir, 'missing.pem'), keyFile: join(dir, 'k.pem') } }),
    ).rejects.toThrow(/^TLS certificate \S+missing\.pem cannot be read: ENOENT/);
  });

  it('takes a replaced certificate for new connections and keeps the rovers connected before', async () => {
    const ctx = await start({}, 'replace');
    const before = await rover(await ctx.secure(), 'AMS1', 1);
    const fingerprintOf = (peer: Peer) => (peer.socket as tls.TLSSocket).getPeerCertificate().fingerprint256;
    expect(fingerprintOf(before)).toBe(certificate.fingerprint256);
    const renewed = await localhostCertificate(60);
    // As a renewal tool does: written beside, then renamed over the old files.
    await writeFile(`${ctx.files.keyFile}.new`, renewed.key);
    await writeFile(`${ctx.files.certFile}.new`, renewed.cert);
    await rename(`${ctx.files.keyFile}.new`, ctx.files.keyFile);
    await rename(`${ctx.files.certFile}.new`, ctx.files.certFile);
    let after: Peer | undefined;
    await until(async () => {
      after?.close();
      // Both certificates name localhost: the fingerprint tells them apart.
      after = await ctx.secure(null);
      return fingerprintOf(after) === renewed.fingerprint256;
    }, 'a new connection to get the renewed certificate');
    const source = await ctx.secure(renewed.cert);
    source.write('SOURCE src-secret /AMS1\r\n\r\n');
    await source.until((p) => p.text() === 'ICY 200 OK\r\n\r\n', 'source answer');
    await writeInPieces(source, capture);
    await before.until((p) => p.body().length >= framesBytes.length, 'frames to the rover connected before');
    expect(before.body().equals(framesBytes)).toBe(true);
    expect(before.closed).toBe(false);
  });

  it('closes a handshake that never completes within the head timeout, without slowing the rovers', async () => {
    const headerTimeoutMs = 600;
    const ctx = await start({ headerTimeoutMs }, 'stall');
    const served = await rover(await ctx.secure(), 'AMS1', 1);
    const source = await ctx.plain();
    source.write('SOURCE src-secret /AMS1\r\n\r\n');
    await source.until((p) => p.text() === 'ICY 200 OK\r\n\r\n', 'source answer');
    // Connections that send nothing, or the start of a ClientHello and then nothing.
    const opened = Date.now();
    const stalled = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const peer = await Peer.connect(ctx.tlsPort);
        open.push(peer);
        if (i % 2) peer.write(Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03]));
        return peer;
      }),
    );
    const frames = validFrames(capture).slice(0, 30);
    let worst = 0;
    let expected = 0;
    for (const frame of frames) {
      const sent = Date.now();
      source.write(frame);
      expected += frame.length;
      await served.until((p) => p.body().length >= expected, 'each frame while handshakes hang', 2000);
      worst = Math.max(worst, Date.now() - sent);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await Promise.all(stalled.map((peer) => peer.until((p) => p.closed, 'the hanging handshake closed', 3000)));
    const closedAfter = Date.now() - opened;
    expect(closedAfter).toBeLessThan(headerTimeoutMs + 1500);
    expect(stalled.every((peer) => peer.length === 0)).toBe(true);
    expect(worst).toBeLessThan(250);
    expect(served.body().equals(Buffer.concat(frames))).toBe(true);
  });
});

const V2_SIGNATURE = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a]);

/** HAProxy's send-proxy-v2 header for a TCP over IPv4 client. */
function v2Header(source: number[], port: number): Buffer {
  const body = Buffer.concat([Buffer.from(source), Buffer.from([127, 0, 0, 1]), Buffer.alloc(4)]);
  body.writeUInt16BE(port, 8);
  body.writeUInt16BE(2102, 10);
  return Buffer.concat([V2_SIGNATURE, Buffer.from([0x21, 0x11, 0, body.length]), body]);
}

/**
 * A balancer passing TLS through (HAProxy in TCP mode with send-proxy) at 127.0.0.2: it takes the rover's
 * connection, and on the rover's first bytes (the ClientHello) opens its own to the caster's TLS port with the
 * PROXY header in front, in the same write as the ClientHello (`together`) or alone before it.
 */
async function passThroughBalancer(tlsPort: number, header: Buffer, together: boolean) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.once('data', (hello: Buffer) => {
      const upstream = net.connect({ port: tlsPort, host: '127.0.0.1', localAddress: '127.0.0.2' }, () => {
        if (together) upstream.write(Buffer.concat([header, hello]));
        else {
          upstream.write(header);
          setTimeout(() => upstream.write(hello), 50);
        }
        client.pipe(upstream).pipe(client);
      });
      sockets.add(upstream);
      for (const end of [client, upstream]) end.on('error', () => (end === client ? upstream : client).destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push({
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  });
  return (server.address() as net.AddressInfo).port;
}

describe('NTRIP over TLS behind a balancer passing TLS through', () => {
  it.each([
    ['v1, alone before the ClientHello', Buffer.from('PROXY TCP4 203.0.113.7 127.0.0.1 51000 2102\r\n'), false],
    ['v2, in one write with the ClientHello', v2Header([203, 0, 113, 7], 51000), true],
  ])(
    'takes a trusted balancer’s PROXY header %s, and records the rover under its address',
    async (_, header, together) => {
      const ctx = await start({}, 'balanced', ['127.0.0.2']);
      const balancer = await passThroughBalancer(ctx.tlsPort, header, together);
      const served = await rover(await ctx.secureVia(balancer), 'AMS1', 2);
      expect(served.text()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      const refused = await ctx.secureVia(balancer);
      refused.write(roverRequest('AMS1', 1, ['alice', 'wrong']));
      expect(await refused.closedWith('the refusal over TLS')).toMatch(/^ICY 401|^HTTP\/1\.[01] 401/);
      served.close();
      await until(
        () => ctx.ports.sessions.length > 0 && ctx.ports.refusals.length > 0,
        'the session and the refused attempt',
      );
      expect(ctx.ports.sessions.map((r) => r.remoteAddress)).toEqual(['203.0.113.7']);
      // The served rover's station had no source yet at its login: that is listed as well.
      expect(ctx.ports.refusals.map((r) => [r.remoteAddress, r.tls, r.reason]).sort()).toEqual([
        ['203.0.113.7', true, 'mountpoint_offline'],
        ['203.0.113.7', true, 'unknown_username'],
      ]);
    },
  );

  it('refuses a PROXY header before the handshake from an address it does not trust', async () => {
    const ctx = await start({}, 'untrusted', ['127.0.0.2']);
    const spoofed = await Peer.connect(ctx.tlsPort, '127.0.0.3');
    open.push(spoofed);
    spoofed.write('PROXY TCP4 203.0.113.9 127.0.0.1 51000 2102\r\n');
    expect(await spoofed.closedWith('the refusal')).toMatch(
      /^HTTP\/1\.0 400 [\s\S]*PROXY header from an untrusted address/,
    );
    const broken = await Peer.connect(ctx.tlsPort, '127.0.0.2');
    open.push(broken);
    broken.write('PROXY TCP4 999.0.0.1 127.0.0.1 1 2\r\n');
    expect(await broken.closedWith('the refusal')).toMatch(/400[\s\S]*malformed PROXY v1 line/);
    // A rover without a header is served under its own address.
    const direct = await rover(await ctx.secure(), 'AMS1', 1);
    expect(direct.text()).toBe('ICY 200 OK\r\n\r\n');
    direct.close();
    await until(() => ctx.ports.sessions.length === 1, 'the session');
    expect(ctx.ports.sessions[0]?.remoteAddress).toBe('127.0.0.1');
  });
});
