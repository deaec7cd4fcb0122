import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { type Caster, type CasterLimits, createCaster, encodeFrame } from '../src/index.ts';
import { Peer, roverRequest } from './support/client.ts';
import { FakePorts } from './support/fakes.ts';
import { TRANSPORTS } from './support/transports.ts';
import { until } from './support/wait.ts';

/**
 * What only the native port (ADR 0095) can get wrong: connections told apart by id when the kernel reuses a
 * descriptor, the bytes it queues for a full socket, and a close from either side. The caster's behaviour on the
 * plain port is tested with both transports in protocol.test.ts and proxy-protocol.test.ts.
 */
const open: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close();
});

function ports(): FakePorts {
  const p = new FakePorts().addNetwork('nl').addStation('AMS1', 'nl', 52.37, 4.9);
  p.accounts.push(
    { username: 'alice', password: 'alice-pw', accountId: 'acc-alice', networks: ['nl'], maxConnections: 1000 },
    { username: 'bob', password: 'bob-pw', accountId: 'acc-bob', networks: ['nl'], maxConnections: 1000 },
  );
  return p;
}

async function start(p = ports(), nativeIo = true, limits: Partial<CasterLimits> = {}) {
  const caster: Caster = await createCaster({
    ports: p,
    nativeIo,
    logger: { info() {}, warn() {}, error() {} },
    limits: { sessionFlushMs: 20, roverBacklogBytes: 256 * 1024 * 1024, ...limits },
  });
  open.push(caster);
  const { port } = await caster.listen(0, '127.0.0.1');
  const connect = async () => {
    const peer = await Peer.connect(port);
    open.push(peer);
    return peer;
  };
  const rover = async (user = 'alice') => {
    const peer = await connect();
    peer.write(roverRequest('AMS1', 1, [user, `${user}-pw`]));
    await peer.until((r) => r.text().startsWith('ICY 200 OK\r\n\r\n'), 'the login');
    return peer;
  };
  const source = async () => {
    const peer = await connect();
    peer.write('SOURCE src-secret /AMS1\r\n\r\n');
    await peer.until((s) => s.text() === 'ICY 200 OK\r\n\r\n', 'the source login');
    return peer;
  };
  return { caster, ports: p, port, rover, source };
}

const child = fileURLToPath(new URL('./support/native-child.ts', import.meta.url));

/** A caster in a process of its own (support/native-child.ts) that may hold at most `descriptors` descriptors. */
async function startChild(descriptors: number, limits: Partial<CasterLimits>) {
  // The hard limit too: Node raises its soft limit to the hard one when it starts.
  const proc: ChildProcess = spawn(
    'sh',
    [
      '-c',
      `ulimit -n ${descriptors} && exec "$0" "$@"`,
      process.execPath,
      '--import',
      'tsx',
      child,
      JSON.stringify(limits),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  open.push({ close: () => proc.kill('SIGKILL') });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    proc.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /port (\d+)\n/.exec(out);
      if (found) resolve(Number(found[1]));
    });
    proc.once('exit', (code) => reject(new Error(`the caster exited with ${code}`)));
  });
  return { pid: proc.pid as number, port };
}

/** CPU seconds a process has used, user and system (/proc/<pid>/stat). */
const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK']).toString());
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

/** Frames whose payload carries their number, so a reordered or repeated frame shows. */
const numbered = (count: number, size = 1000) =>
  Array.from({ length: count }, (_, i) => {
    const payload = Buffer.alloc(size, i % 251);
    payload.writeUInt32BE(i, 0);
    return encodeFrame(payload);
  });

describe.runIf(TRANSPORTS.includes('native'))('the native port', () => {
  it('serves the plain port natively unless turned off', async () => {
    expect((await start(ports(), false)).caster.stats().nativeIo).toEqual({
      active: false,
      reason: expect.stringMatching(/turned off/),
    });
    expect((await start()).caster.stats().nativeIo).toEqual({ active: true, reason: null });
    const byDefault = await createCaster({ ports: ports() });
    open.push(byDefault);
    expect(byDefault.stats().nativeIo).toEqual({ active: true, reason: null });
  });

  it('listens on a host name, looked up as Node looks it up', async () => {
    const caster = await createCaster({ ports: ports(), nativeIo: true });
    open.push(caster);
    const { address, port } = await caster.listen(0, 'localhost');
    expect(net.isIP(address)).not.toBe(0);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect({ host: address, port }, () => socket.end('GET / HTTP/1.0\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
      });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^SOURCETABLE 200 OK/);
  });

  it('tells a connection from the one that gets its descriptor next, whichever side closed it', async () => {
    const { caster, ports: p, rover, source } = await start();
    const base = await source();
    const kept: Peer[] = [];
    // Each round closes a rover and logs in another at once, so the kernel hands the new one the closed descriptor
    // while the native side may still be reporting the old one's end.
    for (let i = 0; i < 40; i++) {
      const gone = await rover(i % 2 ? 'bob' : 'alice');
      if (i % 2) gone.close();
      else caster.disconnectAccount('acc-alice');
      kept.push(await rover('bob'));
    }
    await until(() => p.sessions.length === 40, 'the 40 sessions that ended');
    expect(p.sessions.filter((s) => s.endReason === 'client_closed').length).toBe(20);
    // The alice rovers closed by the caster took only themselves: every bob rover logged in after them is served.
    expect(p.sessions.filter((s) => s.endReason === 'access_revoked').map((s) => s.accountId)).toEqual(
      Array(20).fill('acc-alice'),
    );
    const frames = Buffer.concat(numbered(20));
    base.write(frames);
    for (const peer of kept) {
      await peer.until((r) => r.length >= 14 + frames.length, 'the frames');
      expect(peer.body().equals(frames)).toBe(true);
      expect(peer.closed).toBe(false);
    }
    expect(caster.stats().rovers).toBe(40);
  });

  it('sends a rover it closes what it had queued for it before the end of the stream', async () => {
    const { caster, ports: p, rover, source } = await start();
    const paused = await rover();
    paused.socket.pause();
    const base = await source();
    // More than loopback's socket buffers hold: the rest waits in the native queue for EPOLLOUT.
    const sent = numbered(8000);
    for (let i = 0; i < sent.length; i += 100) {
      base.write(Buffer.concat(sent.slice(i, i + 100)));
      await new Promise((r) => setImmediate(r));
    }
    await until(() => caster.stats().mounts[0]?.online === true, 'the station online');
    await new Promise((r) => setTimeout(r, 200));
    expect(caster.disconnectAccount('acc-alice')).toBe(1);
    paused.socket.resume();
    const bytes = Buffer.concat(sent);
    await paused.closedWith('the end after the queued frames', 20_000);
    expect(paused.body().equals(bytes)).toBe(true);
    await until(() => p.sessions.length === 1, 'the session');
    expect(p.sessions[0]).toMatchObject({ endReason: 'access_revoked', bytesSent: bytes.length });
  });

  it('takes no more than its connection limit at once, and the next once one ends', async () => {
    const { port, rover } = await start(ports(), true, { maxConnections: 3 });
    const first = [await rover(), await rover(), await rover()];
    const next = await Peer.connect(port);
    open.push(next);
    next.write(roverRequest('AMS1', 1, ['alice', 'alice-pw']));
    await new Promise((r) => setTimeout(r, 500));
    expect(next.length).toBe(0);
    first[1]?.close();
    await next.until((r) => r.text().startsWith('ICY 200 OK\r\n\r\n'), 'the login once a connection ended', 15_000);
    for (const peer of first) if (peer !== first[1]) expect(peer.closed).toBe(false);
  });

  it('keeps its connection limit when connections come together', async () => {
    const { port } = await start(ports(), true, { maxConnections: 3 });
    const peers = await Promise.all(Array.from({ length: 10 }, () => Peer.connect(port)));
    open.push(...peers);
    for (const peer of peers) peer.write(roverRequest('AMS1', 1, ['alice', 'alice-pw']));
    const answered = () => peers.filter((peer) => peer.text().startsWith('ICY 200 OK\r\n\r\n'));
    await until(() => answered().length >= 3, 'three logins');
    await new Promise((r) => setTimeout(r, 500));
    expect(answered()).toHaveLength(3);
    answered()[0]?.close();
    await until(() => answered().length >= 4, 'a fourth login once a connection ended', 15_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(answered()).toHaveLength(4);
  });

  it('waits out running out of descriptors without spinning, and serves again once some are free', async () => {
    const descriptors = 128;
    const { pid, port } = await startChild(descriptors, { headerTimeoutMs: 120_000 });
    const held: Peer[] = [];
    // More than the caster can take: the rest wait in the kernel's backlog.
    for (let i = 0; i < descriptors + 40; i++) held.push(await Peer.connect(port));
    open.push(...held);
    await until(
      () => readdirSync(`/proc/${pid}/fd`).length >= descriptors,
      'the caster at its descriptor limit',
      30_000,
    );
    const cpuBefore = cpuSeconds(pid);
    const wallBefore = performance.now();
    await new Promise((r) => setTimeout(r, 1000));
    const share = (cpuSeconds(pid) - cpuBefore) / ((performance.now() - wallBefore) / 1000);
    expect(share).toBeLessThan(0.3);
    for (const peer of held) peer.close();
    const peer = await Peer.connect(port);
    open.push(peer);
    peer.write(roverRequest('AMS1', 1, ['alice', 'alice-pw']));
    await peer.until(
      (r) => r.text().startsWith('ICY 200 OK\r\n\r\n'),
      'the login after descriptors were freed',
      15_000,
    );
  }, 60_000);

  it('hands a source to Node with the bytes that came with its head, and relays them to its native rovers', async () => {
    const { port, rover } = await start();
    const reader = await rover();
    const frames = Buffer.concat(numbered(5));
    const base = await Peer.connect(port);
    open.push(base);
    base.write(Buffer.concat([Buffer.from('SOURCE src-secret /AMS1\r\n\r\n'), frames]));
    await reader.until((r) => r.length >= 14 + frames.length, 'the frames sent with the head');
    expect(reader.body().equals(frames)).toBe(true);
    expect(base.text()).toBe('ICY 200 OK\r\n\r\n');
  });
});
