import { afterEach, describe, expect, it } from 'vitest';
import { type Caster, createCaster, encodeFrame } from '../src/index.ts';
import { dechunk, Peer, roverRequest } from './support/client.ts';
import { FakePorts } from './support/fakes.ts';
import { TRANSPORTS } from './support/transports.ts';
import { until } from './support/wait.ts';

/**
 * Logins the native port answers itself (ADR 0100): a login JavaScript let in is answered again without it while the
 * auth port says its answer holds, and never where JavaScript would answer otherwise.
 */
const open: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close();
});

function ports(maxConnections = 1000): FakePorts {
  const p = new FakePorts().addNetwork('nl').addStation('AMS1', 'nl', 52.37, 4.9).addStation('RTD1', 'nl', 51.9, 4.5);
  p.accounts.push({
    username: 'alice',
    password: 'alice-pw',
    accountId: 'acc-alice',
    networks: ['nl'],
    maxConnections,
  });
  p.reusableMs = 30_000;
  return p;
}

async function start(p = ports(), limits = {}) {
  const caster: Caster = await createCaster({
    ports: p,
    nativeIo: true,
    logger: { info() {}, warn() {}, error() {} },
    limits: { sessionFlushMs: 20, ...limits },
  });
  open.push(caster);
  const { port } = await caster.listen(0, '127.0.0.1');
  /** Sends a rover's head and waits for the first line of the answer. */
  const login = async (head: string) => {
    const peer = await Peer.connect(port);
    open.push(peer);
    peer.write(head);
    await peer.until((r) => r.text().includes('\r\n') || r.closed, 'an answer');
    return peer;
  };
  const rover = (mountpoint = 'AMS1', version: 1 | 2 = 1, password = 'alice-pw', extra: string[] = []) =>
    login(roverRequest(mountpoint, version, ['alice', password], extra));
  const source = async () => {
    const peer = await Peer.connect(port);
    open.push(peer);
    peer.write('SOURCE src-secret /AMS1\r\n\r\n');
    await peer.until((s) => s.text() === 'ICY 200 OK\r\n\r\n', 'the source login');
    return peer;
  };
  return { caster, ports: p, port, login, rover, source };
}

const frames = (count: number) =>
  Buffer.concat(Array.from({ length: count }, (_, i) => encodeFrame(Buffer.alloc(40 + i, i + 1))));

describe.runIf(TRANSPORTS.includes('native'))('logins the native port answers', () => {
  it('answers a login JavaScript let in again without asking, and relays to that rover byte for byte', async () => {
    const { caster, ports: p, rover, source } = await start();
    const base = await source();
    const first = await rover();
    expect(first.text()).toBe('ICY 200 OK\r\n\r\n');
    expect(p.authorizeCalls).toBe(1);
    const again = await Promise.all([rover(), rover(), rover()]);
    expect(again.map((peer) => peer.text())).toEqual(Array(3).fill('ICY 200 OK\r\n\r\n'));
    await answered(caster, 3);
    expect(p.authorizeCalls).toBe(1);
    await until(() => caster.stats().rovers === 4, 'the rovers registered');
    const sent = frames(10);
    base.write(sent);
    for (const peer of [first, ...again]) {
      await peer.until((r) => r.body().length >= sent.length, 'the frames');
      expect(peer.body().equals(sent)).toBe(true);
    }
    for (const peer of [first, ...again]) peer.close();
    await until(() => p.sessions.length === 4, 'the sessions');
    expect(p.sessions.map((s) => [s.accountId, s.userAgent, s.remoteAddress, s.mountpoint])).toEqual(
      Array(4).fill(['acc-alice', 'NTRIP test-rover', '127.0.0.1', 'AMS1']),
    );
  });

  it('answers an NTRIP 2 rover natively with a dated header and a chunked stream', async () => {
    const { caster, ports: p, rover, source } = await start();
    const base = await source();
    await rover('AMS1', 2);
    const peer = await rover('AMS1', 2);
    await answered(caster, 1);
    expect(p.authorizeCalls).toBe(1);
    const head = peer.text().split('\r\n\r\n')[0] as string;
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\nNtrip-Version: Ntrip\/2\.0\r\n/);
    expect(head).toContain('Transfer-Encoding: chunked');
    const date = /\r\nDate: (.{29})\r\n/.exec(head)?.[1];
    expect(Math.abs(Date.parse(date as string) - Date.now())).toBeLessThan(3000);
    await until(() => caster.stats().rovers === 2, 'the rovers registered');
    const sent = frames(5);
    base.write(sent);
    await peer.until((r) => Buffer.concat(dechunkSafe(r.body())).length >= sent.length, 'the frames');
    expect(Buffer.concat(dechunk(peer.body())).equals(sent)).toBe(true);
  });

  it("keeps the account's connection limit across native and JavaScript logins, also when they come together", async () => {
    const { caster, ports: p, rover } = await start(ports(5));
    await rover();
    const storm = await Promise.all(Array.from({ length: 12 }, (_, i) => rover(i % 3 ? 'AMS1' : 'RTD1')));
    const answers = storm.map((peer) => peer.text().split('\r\n')[0]);
    expect(answers.filter((a) => a === 'ICY 200 OK')).toHaveLength(4);
    expect(answers.filter((a) => a?.startsWith('HTTP/1.0 429'))).toHaveLength(8);
    await until(() => caster.stats().rovers === 5, 'five rovers');
    expect(caster.connectionsByAccount(['acc-alice']).get('acc-alice')).toBe(5);
    // A rover leaving frees its connection for the next login, answered natively or not.
    storm.find((peer) => peer.text().startsWith('ICY'))?.close();
    await until(() => caster.stats().rovers === 4, 'a rover gone');
    expect((await rover()).text()).toBe('ICY 200 OK\r\n\r\n');
    expect((await rover()).text()).toMatch(/^HTTP\/1\.0 429/);
    expect(p.authorizeCalls).toBeGreaterThan(1);
  });

  it('asks again once the answer no longer holds, or the auth port says it changed', async () => {
    const p = ports();
    p.reusableMs = 300;
    const { caster, rover } = await start(p);
    await rover();
    await rover();
    await answered(caster, 1);
    await new Promise((r) => setTimeout(r, 400));
    p.reusableMs = 30_000;
    await rover();
    expect(p.authorizeCalls).toBe(2);
    await rover();
    await answered(caster, 2);
    expect(p.authorizeCalls).toBe(2);
    // The password changes: the portal's authorizer says so, and the old one is refused from then on.
    (p.accounts[0] as { password: string }).password = 'new-pw';
    p.changed();
    expect((await rover()).text()).toMatch(/^HTTP\/1\.0 401/);
    expect((await rover('AMS1', 1, 'new-pw')).text()).toBe('ICY 200 OK\r\n\r\n');
    expect(caster.stats().nativeLogins).toBe(2);
  });

  it('closes the rovers of an account cut off and answers its next login through JavaScript', async () => {
    const { caster, ports: p, rover } = await start();
    const first = await rover();
    const second = await rover();
    await answered(caster, 1);
    await until(() => caster.stats().rovers === 2, 'two rovers');
    const accounts = p.accounts[0] as { enabled?: boolean };
    accounts.enabled = false;
    expect(caster.disconnectAccount('acc-alice')).toBe(2);
    await first.closedWith('the end');
    await second.closedWith('the end');
    expect((await rover()).text()).toMatch(/^HTTP\/1\.0 403/);
    expect(caster.stats().nativeLogins).toBe(1);
  });

  it('lets the login throttle refuse a right password from an address with failures', async () => {
    const { caster, rover } = await start(ports(), { failedLoginsPerPair: 2, failedLoginBackoffMs: 60_000 });
    await rover();
    for (let i = 0; i < 3; i++) await rover('AMS1', 1, 'wrong');
    const refused = await rover();
    expect(refused.text()).toMatch(/^HTTP\/1\.0 429/);
    expect(caster.stats().nativeLogins).toBe(0);
  });

  it('leaves heads it cannot read as JavaScript does to JavaScript', async () => {
    const { caster, ports: p, login, rover, source } = await start();
    const base = await source();
    await rover();
    const heads = [
      // A position in the head: JavaScript chooses by it.
      roverRequest('AMS1', 1, ['alice', 'alice-pw'], ['Ntrip-GGA: $GPGGA,1']),
      // The name written differently, a query, a second Authorization, bytes after the head.
      roverRequest('ams1', 1, ['alice', 'alice-pw']),
      roverRequest('AMS1?x=1', 1, ['alice', 'alice-pw']),
      `${roverRequest('AMS1', 1, ['alice', 'alice-pw']).slice(0, -2)}Authorization: Basic Ym9iOmJvYi1wdw==\r\n\r\n`,
      `${roverRequest('AMS1', 1, ['alice', 'alice-pw'])}$GPGGA,2\r\n`,
    ];
    const peers = [];
    for (const head of heads) peers.push(await login(head));
    expect(caster.stats().nativeLogins).toBe(0);
    expect(peers.map((peer) => peer.text().split('\r\n')[0])).toEqual([
      'ICY 200 OK',
      'ICY 200 OK',
      'ICY 200 OK',
      'HTTP/1.0 401 Unauthorized',
      'ICY 200 OK',
    ]);
    expect(p.authorizeCalls).toBe(1 + heads.length);
    await until(() => caster.stats().rovers === 5, 'the rovers registered');
    const sent = frames(3);
    base.write(sent);
    await (peers[0] as Peer).until((r) => r.body().length >= sent.length, 'the frames');
  });

  it('forgets a station that left the catalogue', async () => {
    const { caster, ports: p, rover } = await start();
    await rover();
    p.stations = p.stations.filter((s) => s.mountpoint !== 'AMS1');
    await caster.refreshCatalogue();
    expect((await rover('AMS1', 2)).text()).toMatch(/^HTTP\/1\.1 404/);
    expect((await rover()).text()).toMatch(/^SOURCETABLE 200 OK/);
    expect(caster.stats().nativeLogins).toBe(0);
  });

  it('never answers natively where the auth port cannot say when an answer changes', async () => {
    const p = ports();
    p.reusableMs = undefined;
    const { caster, rover } = await start(p);
    await rover();
    await rover();
    expect(caster.stats().nativeLogins).toBe(0);
    expect(p.authorizeCalls).toBe(2);
  });
});

/** Waits for JavaScript to have registered the rovers the native port answered: `count` of them in all. */
const answered = (caster: Caster, count: number) =>
  until(() => caster.stats().nativeLogins === count, `${count} rovers answered natively`);

/** The chunks received so far, without failing on a chunk still arriving. */
function dechunkSafe(body: Buffer): Buffer[] {
  try {
    return dechunk(body);
  } catch {
    return [];
  }
}
