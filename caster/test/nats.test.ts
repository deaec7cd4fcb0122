import { randomUUID } from 'node:crypto';
import { connect } from 'nats';
import { afterEach, describe, expect, it } from 'vitest';
import { type Caster, createCaster, encodeFrame, formatGga } from '../src/index.ts';
import type { CasterLimits } from '../src/limits.ts';
import { dechunk, Peer, roverRequest } from './support/client.ts';
import { FakePorts, slowDecisions } from './support/fakes.ts';
import { until } from './support/wait.ts';

/** The NATS server of this machine (and of CI); a test run gets its own subject prefix. */
const NATS_URL = process.env.CASTER_TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

const open: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close();
});

function ports(maxConnections: number) {
  const p = new FakePorts().addNetwork('nl').addStation('AMS1', 'nl', 52.37, 4.9).addStation('UTR1', 'nl', 52.09, 5.12);
  p.accounts.push({
    username: 'alice',
    password: 'alice-pw',
    accountId: 'acc-alice',
    networks: ['nl'],
    maxConnections,
  });
  return p;
}

/** Drops the test's connection ledger (a JetStream stream) from the shared NATS server. */
async function dropLedger(prefix: string) {
  const nc = await connect({ servers: NATS_URL });
  const jsm = await nc.jetstreamManager();
  await jsm.streams.delete(`KV_${prefix}-connections`).catch(() => false);
  await nc.close();
}

async function node(
  prefix: string,
  nodeId: string,
  maxConnections = 5,
  cold = false,
  limits: Partial<CasterLimits> = {},
) {
  const p = ports(maxConnections);
  if (cold) slowDecisions(p);
  const caster: Caster = await createCaster({
    ports: p,
    busUrl: NATS_URL,
    busPrefix: prefix,
    nodeId,
    limits: { announceIntervalMs: 200, ...limits },
  });
  open.push(caster);
  const { port } = await caster.listen(0, '127.0.0.1');
  const peer = async () => {
    const p = await Peer.connect(port);
    open.push(p);
    return p;
  };
  return { caster, peer };
}

describe('two caster nodes over NATS', () => {
  it('delivers a base station connected to node A to rovers on node B, frame for frame', async () => {
    const prefix = `test-${randomUUID()}`;
    const a = await node(prefix, 'node-a');
    const b = await node(prefix, 'node-b');

    const rover = await b.peer();
    rover.write(roverRequest('AMS1', 2, ['alice', 'alice-pw']));
    await rover.until((p) => p.text().includes('\r\n\r\n'), 'rover accepted on B');

    const source = await a.peer();
    source.write('SOURCE src-secret /AMS1\r\n\r\n');
    await source.until((p) => p.text() === 'ICY 200 OK\r\n\r\n', 'source accepted on A');
    await until(() => b.caster.stats().mounts.find((m) => m.mountpoint === 'AMS1')?.source === 'bus', 'B to see AMS1');

    const frames = [1, 2, 3].map((n) => encodeFrame(Buffer.from([0x43, 0x50, n, 0, 0, 0])));
    source.write(Buffer.concat([Buffer.from('noise'), ...frames]));
    await rover.until((p) => dechunk(p.body()).length >= 3, 'three frames on B');
    expect(dechunk(rover.body())).toEqual(frames);

    // The mountpoint is fed on A, so B refuses a second base station for it.
    const second = await b.peer();
    second.write('SOURCE src-secret /AMS1\r\n\r\n');
    expect(await second.closedWith('taken across nodes')).toBe('ERROR - Mount Point Taken or Invalid\r\n');
  });

  it("serves node A's station on node B's nearest-station mountpoint, its cached 1005 first, skipping a silent one", async () => {
    const prefix = `test-${randomUUID()}`;
    const a = await node(prefix, 'node-a');
    const b = await node(prefix, 'node-b');
    const stationFrame = encodeFrame(Buffer.from([0x3e, 0xd0, 7, 0, 0, 0, 0, 0, 0]));
    // AMS1's base is logged in on A and sends nothing: A announces it fed but without data (issue 17).
    const silent = await a.peer();
    silent.write('SOURCE src-secret AMS1\r\n\r\n');
    await silent.until((p) => p.text() === 'ICY 200 OK\r\n\r\n', 'silent source accepted on A');
    const source = await a.peer();
    source.write('SOURCE src-secret UTR1\r\n\r\n');
    await source.until((p) => p.text() === 'ICY 200 OK\r\n\r\n', 'source accepted on A');
    source.write(stationFrame);
    await until(() => b.caster.stats().mounts.find((m) => m.mountpoint === 'UTR1')?.online, 'B to see UTR1 online');

    const rover = await b.peer();
    rover.write(
      roverRequest(
        'NL_NEAR',
        2,
        ['alice', 'alice-pw'],
        // Next to AMS1: before issue 17 this chose the connected but silent AMS1, and the rover received nothing.
        [`Ntrip-GGA: ${formatGga({ latitude: 52.37, longitude: 4.9 }).trim()}`],
      ),
    );
    await rover.until((p) => dechunk(p.body()).length >= 1, 'cached 1005 through the bus');
    expect(dechunk(rover.body())[0]).toEqual(stationFrame);
    const observation = encodeFrame(Buffer.from([0x43, 0x50, 9, 9]));
    // B subscribes to the frames subject when the rover attaches, and NATS registers a subscription
    // asynchronously: a frame published in that instant reaches nobody, as the epoch before a rover's arrival
    // would. So the base keeps sending epochs, as a real one does, until one arrives.
    const epochs = setInterval(() => source.write(observation), 100);
    try {
      await rover.until((p) => dechunk(p.body()).length >= 2, 'live frames through the bus');
    } finally {
      clearInterval(epochs);
    }
    const [first, ...live] = dechunk(rover.body());
    expect(first).toEqual(stationFrame);
    expect(live.length).toBeGreaterThan(0);
    for (const frame of live) expect(frame).toEqual(observation);
  });

  it("counts an account's rovers on every node against its connection limit", async () => {
    const prefix = `test-${randomUUID()}`;
    const a = await node(prefix, 'node-a', 1);
    const b = await node(prefix, 'node-b', 1);
    const first = await a.peer();
    first.write(roverRequest('AMS1', 2, ['alice', 'alice-pw']));
    await first.until((p) => p.text().startsWith('HTTP/1.1 200 OK'), 'first rover on A');
    await until(() => b.caster.connectionsByAccount(['acc-alice']).get('acc-alice') === 1, 'B to hear of it');
    const second = await b.peer();
    second.write(roverRequest('AMS1', 2, ['alice', 'alice-pw']));
    expect(await second.closedWith('limit across nodes')).toMatch(/^HTTP\/1\.1 429 /);
  });

  for (const count of [20, 200]) {
    for (const cache of ['cold', 'warm'] as const) {
      it(`admits exactly one of ${count} simultaneous rovers of a one-connection account across two nodes (${cache} decisions, NTRIP 1 and 2)`, async () => {
        const prefix = `test-${randomUUID()}`;
        try {
          const a = await node(prefix, 'node-a', 1, cache === 'cold');
          const b = await node(prefix, 'node-b', 1, cache === 'cold');
          if (cache === 'warm') {
            const first = await a.peer();
            first.write(roverRequest('AMS1', 2, ['alice', 'alice-pw']));
            await first.until((p) => p.text().startsWith('HTTP/1.1 200 OK'), 'a first rover on A');
            first.close();
            await until(() => a.caster.connectionsByAccount(['acc-alice']).size === 0, 'it to leave');
          }
          const peers = await Promise.all(Array.from({ length: count }, (_, i) => (i % 2 ? b : a).peer()));
          for (const [i, peer] of peers.entries())
            peer.write(roverRequest('AMS1', i % 4 < 2 ? 1 : 2, ['alice', 'alice-pw']));
          await Promise.all(
            peers.map((p) => p.until((x) => x.closed || x.text().includes('\r\n\r\n'), 'an answer', 15_000)),
          );
          const served = peers.filter((p) => !p.closed && /^(ICY 200 OK|HTTP\/1\.1 200 OK)/.test(p.text()));
          expect(served).toHaveLength(1);
          expect(peers.filter((p) => /^HTTP\/1\.[01] 429 /.test(p.text()))).toHaveLength(count - 1);
          // Once it leaves, the connection is free again on either node.
          served[0]?.close();
          await until(
            () =>
              a.caster.connectionsByAccount(['acc-alice']).size === 0 &&
              b.caster.connectionsByAccount(['acc-alice']).size === 0,
            'the rover to leave and both nodes to hear it',
          );
          const next = await b.peer();
          next.write(roverRequest('AMS1', 2, ['alice', 'alice-pw']));
          await next.until((p) => p.text().includes('\r\n\r\n'), 'the next rover');
          expect(next.text()).toMatch(/^HTTP\/1\.1 200 OK/);
        } finally {
          for (const c of open.splice(0).reverse()) await c.close();
          await dropLedger(prefix);
        }
      });
    }
  }

  describe('the login throttle counts wrong passwords checked on every node (ADR 0072)', () => {
    /** One login to one node; the answer's status line. */
    const answer = async (n: Awaited<ReturnType<typeof node>>, user: string, password: string) => {
      const p = await n.peer();
      p.write(roverRequest('AMS1', 2, [user, password]));
      await p.until((c) => c.text().includes('\r\n\r\n') || c.closed, 'an answer');
      p.close();
      return p.text().split('\r\n')[0];
    };
    const threeNodes = async (limits: Partial<CasterLimits>) => {
      const prefix = `test-${randomUUID()}`;
      const nodes: Array<Awaited<ReturnType<typeof node>>> = [];
      for (const id of ['node-a', 'node-b', 'node-c']) nodes.push(await node(prefix, id, 5, false, limits));
      // A rover on each node until every node counts all three: each has heard the others.
      const rovers = [];
      for (const n of nodes) {
        const rover = await n.peer();
        rover.write(roverRequest('AMS1', 2, ['alice', 'alice-pw']));
        await rover.until((p) => p.text().startsWith('HTTP/1.1 200 OK'), 'a rover');
        rovers.push(rover);
      }
      await until(
        () => nodes.every((n) => n.caster.connectionsByAccount(['acc-alice']).get('acc-alice') === 3),
        'the nodes to hear each other',
      );
      for (const rover of rovers) rover.close();
      return nodes;
    };

    it('30 wrong passwords for one name spread over three nodes: five are checked, then the pair is locked', async () => {
      // A long first lock, so a slow machine cannot see it end within the 25 refused attempts.
      const nodes = await threeNodes({ failedLoginBackoffMs: 30_000 });
      const answers: Array<string | undefined> = [];
      for (let i = 0; i < 30; i++) answers.push(await answer(nodes[i % 3] as (typeof nodes)[0], 'alice', 'stale'));
      expect(answers.slice(0, 5)).toEqual(Array(5).fill('HTTP/1.1 401 Unauthorized'));
      expect(answers.slice(5).every((a) => a?.startsWith('HTTP/1.1 429'))).toBe(true);
      // Locked on every node, the right password too, until the lock ends; the other names are not.
      for (const n of nodes) expect(await answer(n, 'alice', 'alice-pw')).toMatch(/^HTTP\/1\.1 429/);
    });

    it('wrong passwords for 30 names spread over three nodes reach the address ceiling as on one node', async () => {
      const nodes = await threeNodes({ failedLoginsPerIp: 12 });
      const answers: Array<string | undefined> = [];
      for (let i = 0; i < 30; i++) answers.push(await answer(nodes[i % 3] as (typeof nodes)[0], `user${i}`, 'guess'));
      expect(answers.filter((a) => a?.startsWith('HTTP/1.1 401'))).toHaveLength(12);
      expect(answers.slice(12).every((a) => a?.startsWith('HTTP/1.1 429'))).toBe(true);
    });
  });
});
