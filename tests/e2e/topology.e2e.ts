import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { encodeFrame } from '@portal/caster';
import { sql } from 'kysely';
import { connect } from 'nats';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { until } from '../../caster/test/support/wait.ts';
import { root } from '../../scripts/launch.ts';
import { createAccountWithGrant } from '../../server/src/cli/operator-actions.ts';
import { openDatabase } from '../../server/src/db/client.ts';
import { emulatorClient } from '../../server/src/dev/auth-emulator.ts';
import { freePort } from '../../server/src/dev/free-port.ts';
import { DEMO_USER } from './support/auth';
import { type NpmProcess, spawnNpm, waitForOutput } from './support/npm-process';
import { DEMO_SOURCE_PASSWORD } from './support/ntrip';

/**
 * The README's "Run it at scale" lines as printed: the whole deployment of deploy/ on loopback (HAProxy, two API
 * nodes, three caster nodes, a NATS cluster of three, PostgreSQL), then the failures docs/deployment.md describes,
 * one after another, with rovers connected through HAProxy all along. The base station pushes to caster-1; the
 * rovers on the other nodes receive its frames over NATS. Its own ports, loopback network (TOPOLOGY_NET) and data
 * folder, so it never meets a topology a developer runs.
 */

/** The issue's size: 1,000 on the node killed and on the node drained. TOPOLOGY_ROVERS changes it. */
const ROVERS = Number(process.env.TOPOLOGY_ROVERS ?? 3000);
/** The rovers belong to this many fleet accounts, as a network's customers would (not 3,000 logins of one). */
const FLEETS = 20;
const MOUNT = 'AMST00NLD0';
/** The base sends a frame a second, as a station's epoch: a gap of more than 10 s is 10 frames missed. */
const FRAME_MS = 1000;
const START_MS = 420_000;

interface Entry {
  role: string;
  name: string;
  address: string;
  pid: number;
}

/** The fenced sh block of the README's "Run it at scale" section, one command a line. */
function readmeCommands(): string[][] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Run it at scale'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => l.split(/\s+/));
}

/** An RTCM 3 frame (message 1077's number) whose payload carries its sequence number. */
function frame(seq: number): Buffer {
  const payload = Buffer.alloc(40);
  payload[0] = 0x43;
  payload[1] = 0x50;
  payload.writeUInt32BE(seq, 4);
  return encodeFrame(payload);
}
const seqOf = (f: Buffer) => f.readUInt32BE(3 + 4);

/** The base station: logs in to one caster node as the station's source and sends a numbered frame every 100 ms. */
class Base {
  readonly sent = new Map<number, Buffer>();
  private seq = 0;
  private timer: NodeJS.Timeout | undefined;
  private socket: net.Socket | undefined;

  async start(host: string, port: number): Promise<void> {
    const socket = net.connect({ host, port });
    socket.on('error', () => {});
    socket.write(`SOURCE ${DEMO_SOURCE_PASSWORD} /${MOUNT}\r\nSource-Agent: NTRIP topology-e2e\r\n\r\n`);
    const answer = await new Promise<string>((resolve) => socket.once('data', (d: Buffer) => resolve(d.toString())));
    expect(answer).toMatch(/^ICY 200 OK/);
    this.socket = socket;
    this.timer = setInterval(() => {
      const f = frame(++this.seq);
      this.sent.set(this.seq, f);
      socket.write(f);
    }, FRAME_MS);
  }

  stop(): void {
    clearInterval(this.timer);
    this.socket?.destroy();
  }
}

/**
 * A rover through HAProxy (NTRIP 1) that reconnects half a second after its connection ends or its login is refused,
 * as field devices do (str2str after its `-r` interval). All of a node's rovers come back in the same second, the
 * worst case for the nodes that take them; their time without corrections is measured from the kill or the drain.
 * It keeps when each frame arrived and checks each against what the base sent, byte for byte. Light enough that
 * this process holds 3,000 of them (one socket each, no process per rover).
 */
class Rover {
  frames: Array<{ seq: number; at: number }> = [];
  disconnects: number[] = [];
  mismatches = 0;
  private socket: net.Socket | undefined;
  private stopped = false;

  constructor(
    private readonly port: number,
    private readonly credentials: string,
    private readonly base: Base,
    private readonly localAddress?: string,
  ) {}

  connect(): Promise<void> {
    return new Promise((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port: this.port, localAddress: this.localAddress });
      this.socket = socket;
      let head = true;
      let pending = Buffer.alloc(0);
      socket.on('error', () => {});
      socket.on('connect', () =>
        socket.write(
          `GET /${MOUNT} HTTP/1.0\r\nUser-Agent: NTRIP topology-e2e\r\nAuthorization: Basic ${this.credentials}\r\n\r\n`,
        ),
      );
      socket.on('data', (chunk: Buffer) => {
        pending = Buffer.concat([pending, chunk]);
        if (head) {
          // The caster answers a NTRIP 1 rover `ICY 200 OK` and a blank line, a refusal with its reason.
          const end = pending.indexOf('\r\n\r\n');
          if (end < 0) return;
          if (!pending.subarray(0, end).toString().startsWith('ICY 200 OK')) return socket.destroy();
          head = false;
          pending = pending.subarray(end + 4);
          resolve();
        }
        while (pending.length >= 3 && pending[0] === 0xd3) {
          const total = 6 + ((((pending[1] as number) & 0x03) << 8) | (pending[2] as number));
          if (pending.length < total) break;
          const f = pending.subarray(0, total);
          const seq = seqOf(f);
          if (!this.base.sent.get(seq)?.equals(f)) this.mismatches++;
          this.frames.push({ seq, at: Date.now() });
          pending = pending.subarray(total);
        }
      });
      socket.on('close', () => {
        resolve();
        if (this.stopped) return;
        this.disconnects.push(Date.now());
        setTimeout(() => void this.connect(), 500);
      });
    });
  }

  stop(): void {
    this.stopped = true;
    this.socket?.destroy();
  }

  /** Whether frames arrived after `since`. */
  receivingSince(since: number): boolean {
    return (this.frames.at(-1)?.at ?? 0) > since;
  }

  /** The longest time without a frame between `from` and `to`. */
  longestGap(from: number, to: number): number {
    let last = from;
    let longest = 0;
    for (const { at } of this.frames) {
      if (at < from) continue;
      if (at > to) break;
      longest = Math.max(longest, at - last);
      last = at;
    }
    return Math.max(longest, Math.min(to, Date.now()) - last);
  }

  /** Frames between two that arrived in [from, to] that never came (a sequence number skipped). */
  missedBetween(from: number, to: number): number {
    const seqs = this.frames.filter((f) => f.at >= from && f.at <= to).map((f) => f.seq);
    let missed = 0;
    for (let i = 1; i < seqs.length; i++) missed += Math.max(0, (seqs[i] as number) - (seqs[i - 1] as number) - 1);
    return missed;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One NTRIP 2 login straight to a caster node, as HAProxy relays it: from the balancer's address, with a PROXY
 * v1 header naming the client's. Resolves to the answer's status line; the connection is closed once answered, or
 * once `hold` resolves (a rover admitted stays while the others are decided).
 */
function loginVia(
  node: string,
  port: number,
  client: string,
  user: string,
  password: string,
  hold?: Promise<unknown>,
): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: node, port, localAddress: '127.0.0.1' });
    let answer = '';
    socket.on('error', () => resolve(answer.split('\r\n')[0] ?? ''));
    socket.on('connect', () =>
      socket.write(
        `PROXY TCP4 ${client} ${node} 50000 ${port}\r\n` +
          `GET /${MOUNT} HTTP/1.1\r\nHost: ${node}\r\nNtrip-Version: Ntrip/2.0\r\nUser-Agent: NTRIP topology-e2e\r\n` +
          `Authorization: Basic ${Buffer.from(`${user}:${password}`).toString('base64')}\r\n\r\n`,
      ),
    );
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n\r\n')) {
        resolve(answer.split('\r\n')[0] ?? '');
        if (hold) void hold.then(() => socket.destroy());
        else socket.destroy();
      }
    });
    socket.on('close', () => resolve(answer.split('\r\n')[0] ?? ''));
  });
}

/** A GET through the balancer from another loopback address, as a client elsewhere on the network. */
function getFrom(localAddress: string, port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, localAddress }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', reject);
  });
}

describe('the deployment on one machine: HAProxy, 2 API nodes, 3 casters, NATS cluster, PostgreSQL (issue 34)', () => {
  const commands = readmeCommands();
  const net8 = 100 + (process.pid % 150);
  let dir: string;
  let env: Record<string, string>;
  let topology: NpmProcess;
  let portalPort: number;
  let ntripPort: number;
  let authPort: number;
  let status: Entry[];
  const base = new Base();
  const rovers: Rover[] = [];
  let credentials: string[];
  let db: Awaited<ReturnType<typeof openDatabase>>;

  // Asynchronous: the base and the rovers live in this process, and a blocked event loop would look like a gap.
  const run = async (args: string[]) =>
    (await promisify(execFile)('npm', args, { cwd: root, env: { ...process.env, ...env }, encoding: 'utf8' })).stdout;
  const pidOf = async (name: string) => {
    status = JSON.parse(await run(['run', '-s', 'topology', '--', 'status'])) as Entry[];
    const entry = status.find((e) => e.name === name);
    if (!entry) throw new Error(`no ${name} in ${JSON.stringify(status)}`);
    return entry.pid;
  };
  const pidChanges = async (name: string, from: number, ms: number) => {
    const deadline = Date.now() + ms;
    while ((await pidOf(name)) === from) {
      if (Date.now() > deadline) throw new Error(`${name} was not started again within ${ms / 1000} s`);
      await sleep(500);
    }
  };

  beforeAll(async () => {
    expect(commands[0]).toEqual(['npm', 'run', 'topology']);
    dir = mkdtempSync(join(tmpdir(), 'portal-topology-'));
    // As root the topology runs PostgreSQL as the postgres user, who must reach its folder in here.
    chmodSync(dir, 0o755);
    [portalPort, ntripPort, authPort] = [await freePort(), await freePort(), await freePort()];
    env = {
      PORT: String(portalPort),
      CASTER_PORT: String(ntripPort),
      AUTH_EMULATOR_PORT: String(authPort),
      TOPOLOGY_DIR: dir,
      TOPOLOGY_NET: String(net8),
      STATIC_DIR: inject('spaDir'),
      CASTER_DRAIN_SECONDS: '4',
    };
    const [cmd, ...args] = commands[0] as string[];
    expect(cmd).toBe('npm');
    topology = spawnNpm(args, env);
    await waitForOutput(topology, 'Topology ready', START_MS);
    db = await openDatabase({
      databaseUrl: `postgres://postgres@127.${net8}.3.1:5432/portal`,
      pgliteDataDir: 'memory://',
    });
    credentials = [];
    for (let i = 0; i < FLEETS; i++) {
      await createAccountWithGrant(db.db, {
        email: DEMO_USER.email,
        username: `fleet${i}`,
        password: 'fleet-password',
        network: 'dutch-rtk',
        days: 1,
      });
      credentials.push(Buffer.from(`fleet${i}:fleet-password`).toString('base64'));
    }
    await createAccountWithGrant(db.db, {
      email: DEMO_USER.email,
      username: 'solo',
      password: 'solo-password',
      network: 'dutch-rtk',
      days: 1,
    });
    await sql`UPDATE ntrip_accounts SET max_connections = 1000 WHERE username LIKE 'fleet%'`.execute(db.db);
    await sql`UPDATE ntrip_accounts SET max_connections = 1 WHERE username = 'solo'`.execute(db.db);
  }, START_MS + 60_000);

  afterAll(async () => {
    for (const rover of rovers) rover.stop();
    base.stop();
    await db?.close();
    let last: Entry[] = [];
    if (topology && topology.child.exitCode === null) {
      last = JSON.parse(await run(['run', '-s', 'topology', '--', 'status'])) as Entry[];
      // Ctrl-C in the terminal: the whole foreground group (npm and the launcher) gets SIGINT.
      process.kill(-(topology.child.pid as number), 'SIGINT');
      await Promise.race([topology.exited, sleep(60_000)]);
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
    // Nothing of the topology outlives it: an orphaned NATS or HAProxy would hold its address for the next start.
    const alive = () =>
      last.filter((entry) => {
        try {
          process.kill(entry.pid, 0);
          return true;
        } catch {
          return false;
        }
      });
    for (let i = 0; i < 40 && alive().length > 0; i++) await sleep(250);
    expect(alive().map((e) => e.name)).toEqual([]);
  }, 120_000);

  it('status lists every process with its role, address and pid', async () => {
    const printed = JSON.parse(await run(commands[1]?.slice(1) ?? [])) as Entry[];
    status = printed;
    expect(printed.map((e) => e.role).sort()).toEqual(
      ['api', 'api', 'caster', 'caster', 'caster', 'haproxy', 'nats', 'nats', 'nats', 'postgres'].sort(),
    );
    for (const entry of printed) {
      expect(entry.address).toMatch(/^127\.\d+\.\d+\.\d+:\d+$/);
      expect(() => process.kill(entry.pid, 0)).not.toThrow();
    }
    const casters = printed.filter((e) => e.role === 'caster').map((e) => e.address);
    expect(new Set(casters).size).toBe(3);
  });

  it('rovers through HAProxy on every node get the base’s frames byte for byte, pushed to caster-1', async () => {
    const caster1 = status.find((e) => e.name === 'caster-1')?.address.split(':')[0] as string;
    await base.start(caster1, ntripPort);
    const startedAt = Date.now();
    // A hundred logins at a time, as a network's rovers come back after an outage.
    for (let i = 0; i < ROVERS; i += 100) {
      const batch = Array.from(
        { length: Math.min(100, ROVERS - i) },
        (_, j) => new Rover(ntripPort, credentials[(i + j) % FLEETS] as string, base),
      );
      rovers.push(...batch);
      await Promise.all(batch.map((r) => r.connect()));
    }
    console.log(`topology e2e: ${ROVERS} rovers logged in through HAProxy in ${Date.now() - startedAt} ms`);
    const since = Date.now();
    await until(
      () => rovers.every((r) => r.receivingSince(since + 1000)),
      () => `every rover receiving (${rovers.filter((r) => !r.receivingSince(since + 1000)).length} not yet)`,
      30_000,
      100,
    );
    expect(rovers.reduce((n, r) => n + r.mismatches, 0)).toBe(0);
    expect(rovers.every((r) => r.disconnects.length === 0)).toBe(true);
  });

  it('the caster and the API see the client’s own address, not the balancer’s', async () => {
    const guest = new Rover(ntripPort, Buffer.from('fleet0:wrong-password').toString('base64'), base, '127.0.9.9');
    void guest.connect();
    await sleep(1500);
    guest.stop();
    const refusals = async () =>
      (await sql<{ remote_address: string }>`SELECT remote_address FROM ntrip_refusals`.execute(db.db)).rows.map(
        (r) => r.remote_address,
      );
    const deadline = Date.now() + 20_000;
    while (!(await refusals()).includes('127.0.9.9') && Date.now() < deadline) await sleep(250);
    expect(await refusals()).toContain('127.0.9.9');
    expect(await refusals()).not.toContain('127.0.0.1');

    expect(await getFrom('127.0.9.9', portalPort, '/api/meta?from=topology-e2e')).toBe(200);
    await until(
      () =>
        /\[api-\d\] .*"url":"\/api\/meta\?from=topology-e2e".*"remoteAddress":"127\.0\.9\.9"/.test(topology.output()),
      () => 'the API to log the request under the client address',
      10_000,
      100,
    );
  });

  it('the same one-connection account logging in on all three nodes at once is admitted exactly once', async () => {
    const nodes = status.filter((e) => e.role === 'caster').map((e) => e.address.split(':')[0] as string);
    let release = () => {};
    const hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Ten at once on each node, each from its own address as HAProxy would say it; the one admitted stays until
    // all are answered (once it leaves, the next login may rightly have its connection).
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        loginVia(nodes[i % 3] as string, ntripPort, `198.51.100.${i + 1}`, 'solo', 'solo-password', hold),
      ),
    ).finally(release);
    expect(answers.filter((a) => a === 'HTTP/1.1 200 OK')).toHaveLength(1);
    expect(answers.filter((a) => a.startsWith('HTTP/1.1 429'))).toHaveLength(29);
  });

  it('30 wrong passwords spread over the three nodes throttle the address as 30 on one node would', async () => {
    const nodes = status.filter((e) => e.role === 'caster').map((e) => e.address.split(':')[0] as string);
    const answers: string[] = [];
    for (let i = 0; i < 30; i++)
      answers.push(await loginVia(nodes[i % 3] as string, ntripPort, '203.0.113.7', 'fleet1', 'guess'));
    // Five wrong passwords are told so, then the (address, name) pair is locked on every node (ADR 0015, 0072).
    expect(answers.slice(0, 5)).toEqual(Array(5).fill('HTTP/1.1 401 Unauthorized'));
    expect(answers.slice(5).filter((a) => !a.startsWith('HTTP/1.1 429'))).toEqual([]);
    for (const node of nodes)
      expect(await loginVia(node, ntripPort, '203.0.113.7', 'fleet1', 'fleet-password')).toMatch(/^HTTP\/1\.1 429/);
    // The rover's address, not the balancer's, is locked: the same name from elsewhere is served.
    const elsewhere = await loginVia(nodes[0] as string, ntripPort, '203.0.113.8', 'fleet1', 'fleet-password');
    expect(elsewhere).toBe('HTTP/1.1 200 OK');
  });

  it('kill -9 of a caster node: its rovers get frames again within 10 s, the others miss none', async () => {
    const pid = await pidOf('caster-3');
    const killedAt = Date.now();
    process.kill(pid, 'SIGKILL');
    await sleep(1000);
    const moved = rovers.filter((r) => r.disconnects.some((t) => t >= killedAt));
    const stayed = rovers.filter((r) => !moved.includes(r));
    // leastconn spread the rovers over the three nodes: about a third were on the one killed.
    expect(moved.length).toBeGreaterThan(ROVERS / 6);
    expect(moved.length).toBeLessThan(ROVERS / 2);
    await until(
      () => moved.every((r) => r.receivingSince((r.disconnects.at(-1) as number) + 1)),
      () =>
        `${moved.filter((r) => !r.receivingSince((r.disconnects.at(-1) as number) + 1)).length} rovers to reconnect`,
      15_000,
      100,
    );
    const end = Date.now();
    const longest = Math.max(...moved.map((r) => r.longestGap(killedAt, end)));
    console.log(`topology e2e: kill -9 moved ${moved.length} rovers; longest without frames ${longest} ms`);
    for (const rover of moved) expect(rover.longestGap(killedAt, end)).toBeLessThan(10_000);
    for (const rover of stayed) expect(rover.missedBetween(killedAt - 1000, end)).toBe(0);
    expect(rovers.reduce((n, r) => n + r.mismatches, 0)).toBe(0);
    // The node is started again, as systemd would.
    await pidChanges('caster-3', pid, 60_000);
  });

  it('kill -9 of an API node during a sequence of SPA calls: none fails beyond one retry', async () => {
    const { idToken } = await emulatorClient(`127.0.0.1:${authPort}`).signIn(DEMO_USER.email, DEMO_USER.password);
    const call = async (path: string) => {
      for (let attempt = 1; ; attempt++) {
        try {
          const res = await fetch(`http://127.0.0.1:${portalPort}${path}`, {
            headers: { authorization: `Bearer ${idToken}` },
            signal: AbortSignal.timeout(15_000),
          });
          if (res.status < 500) return res.status;
          if (attempt === 2) return res.status;
        } catch (err) {
          if (attempt === 2) throw err;
        }
      }
    };
    const api1 = await pidOf('api-1');
    const results: number[] = [];
    for (let i = 0; i < 30; i++) {
      if (i === 10) process.kill(api1, 'SIGKILL');
      results.push(await call(i % 2 ? '/api/user' : '/api/ntrip-accounts'));
      await sleep(100);
    }
    expect(results.filter((s) => s !== 200)).toEqual([]);
  });

  it('one NATS node stopped: relaying across the casters continues, and the connection ledger', async () => {
    const nats1 = await pidOf('nats-1');
    const outputBefore = topology.output().length;
    const stoppedAt = Date.now();
    process.kill(nats1, 'SIGKILL');
    // The connection ledger has a copy on each NATS node (ADR 0073): the two left elect a leader for it, and a new
    // login is decided by it, not by the announced counts the nodes fall back to when it is out of reach.
    const nc = await connect({ servers: `nats://127.${net8}.4.2:4222` });
    try {
      // No API check at connect: while the two left elect a new meta leader, JetStream requests time out.
      const jsm = await nc.jetstreamManager({ checkAPI: false });
      const ledger = async () => (await jsm.streams.info('KV_ntrip-connections').catch(() => null)) ?? null;
      // A request sent during the election waits out the client's 5 s timeout, so the bound allows several tries.
      const deadline = Date.now() + 20_000;
      let info = await ledger();
      while (!info?.cluster?.leader && Date.now() < deadline) {
        await sleep(200);
        info = await ledger();
      }
      expect(info?.config.num_replicas).toBe(3);
      expect(info?.cluster?.leader).toBeTruthy();
    } finally {
      await nc.close();
    }
    const late = new Rover(ntripPort, credentials[2] as string, base);
    void late.connect();
    await until(
      () => late.receivingSince(0),
      () => 'a new login with one NATS node stopped',
      15_000,
      100,
    ).finally(() => late.stop());
    await sleep(Math.max(0, stoppedAt + 8000 - Date.now()));
    const end = Date.now();
    for (const rover of rovers) {
      expect(rover.receivingSince(end - 2500)).toBe(true);
      expect(rover.longestGap(stoppedAt, end)).toBeLessThan(5000);
    }
    expect(topology.output().slice(outputBefore)).not.toContain('connection ledger unreachable');
  });

  it('PostgreSQL restarted: admitted rovers keep receiving, and new logins work again once it is back', async () => {
    const postgres = await pidOf('postgres');
    const restartedAt = Date.now();
    process.kill(postgres, 'SIGINT');
    await sleep(6000);
    const end = Date.now();
    for (const rover of rovers) expect(rover.missedBetween(restartedAt, end)).toBe(0);
    // Refused (503) while the database is away, it tries again every half second, as a field device does.
    const late = new Rover(ntripPort, credentials[0] as string, base);
    void late.connect();
    await until(
      () => late.receivingSince(0),
      () => 'a new login once PostgreSQL is back',
      30_000,
      100,
    ).finally(() => late.stop());
  });

  it('drain of a caster node: its rovers reconnect elsewhere, none without corrections for more than 10 s', async () => {
    const pid = await pidOf('caster-2');
    const drainedAt = Date.now();
    await run(commands[2]?.slice(1) ?? []);
    await pidChanges('caster-2', pid, 30_000);
    const moved = rovers.filter((r) => r.disconnects.some((t) => t >= drainedAt));
    expect(moved.length).toBeGreaterThan(0);
    await sleep(2000);
    const end = Date.now();
    const longest = Math.max(...moved.map((r) => r.longestGap(drainedAt, end)));
    console.log(`topology e2e: drain moved ${moved.length} rovers; longest without frames ${longest} ms`);
    const late = rovers
      .filter((r) => r.longestGap(drainedAt, end) >= 10_000)
      .map((r) => ({
        gap: r.longestGap(drainedAt, end),
        disconnects: r.disconnects.filter((t) => t >= drainedAt).map((t) => t - drainedAt),
        frames: r.frames
          .filter((f) => f.at >= drainedAt - 1000)
          .map((f) => f.at - drainedAt)
          .filter((_, i) => i % 10 === 0),
      }));
    expect(late, `${late.length} rovers without frames for 10 s: ${JSON.stringify(late.slice(0, 3))}`).toEqual([]);
    // Spread over the drain time, not all at once.
    const times = moved.map((r) => r.disconnects.find((t) => t >= drainedAt) as number);
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(1500);
    expect(rovers.reduce((n, r) => n + r.mismatches, 0)).toBe(0);
  });
});
