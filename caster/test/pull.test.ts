import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type Caster, createCaster, encodeFrame } from '../src/index.ts';
import { dechunk, Peer, roverRequest } from './support/client.ts';
import { FakePorts } from './support/fakes.ts';
import { until } from './support/wait.ts';

const open: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close();
});

async function upstreamCaster(port = 0) {
  const ports = new FakePorts().addNetwork('up').addStation('UPS1', 'up', 50, 8, 'up-source');
  ports.accounts.push({ username: 'relay', password: 'relay-pw', accountId: 'acc-relay', networks: ['up'] });
  const caster: Caster = await createCaster({ ports });
  open.push(caster);
  const address = await caster.listen(port, '127.0.0.1');
  const source = await Peer.connect(address.port);
  open.push(source);
  source.write('SOURCE up-source /UPS1\r\n\r\n');
  await source.until((p) => p.text() === 'ICY 200 OK\r\n\r\n', 'upstream source');
  return { caster, port: address.port, source };
}

async function pullingCaster(upstreamPort: number, ntripVersion: 1 | 2) {
  const ports = new FakePorts().addNetwork('nl').addStation('PULL1', 'nl', 52, 5);
  ports.accounts.push({ username: 'alice', password: 'alice-pw', accountId: 'acc-alice', networks: ['nl'] });
  ports.pulls.push({
    mountpoint: 'PULL1',
    host: '127.0.0.1',
    port: upstreamPort,
    upstreamMountpoint: 'UPS1',
    username: 'relay',
    password: 'relay-pw',
    ntripVersion,
  });
  const caster = await createCaster({ ports, limits: { pullBackoffMinMs: 50, pullBackoffMaxMs: 200 } });
  open.push(caster);
  const { port } = await caster.listen(0, '127.0.0.1');
  return { caster, port, ports };
}

const frames = [1, 2, 3].map((n) => encodeFrame(Buffer.from([0x43, 0x50, n, 1, 2])));

describe('pull feeds', () => {
  for (const version of [1, 2] as const) {
    it(`relays an upstream NTRIP ${version} mountpoint to local rovers`, async () => {
      const up = await upstreamCaster();
      const down = await pullingCaster(up.port, version);
      await until(() => down.caster.stats().mounts[0]?.source === 'pull', 'the pull feed to connect');
      expect(down.ports.feedStatuses.map((s) => s.status)).toEqual(['connecting', 'connected']);
      const rover = await Peer.connect(down.port);
      open.push(rover);
      rover.write(roverRequest('PULL1', 2, ['alice', 'alice-pw']));
      await rover.until((p) => p.text().includes('\r\n\r\n'), 'rover accepted');
      up.source.write(Buffer.concat(frames));
      await rover.until((p) => dechunk(p.body()).length >= 3, 'the upstream frames');
      expect(dechunk(rover.body())).toEqual(frames);
    });
  }

  it('reconnects with backoff until the upstream caster is there, and after it goes away', async () => {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    const down = await pullingCaster(port, 2);
    await until(() => down.ports.feedStatuses.filter((s) => s.status === 'error').length >= 2, 'failed attempts');
    expect(down.ports.feedStatuses.find((s) => s.status === 'error')?.lastError).toMatch(/ECONNREFUSED/);

    const up = await upstreamCaster(port);
    await until(() => down.caster.stats().mounts[0]?.source === 'pull', 'the pull feed to connect');
    await up.caster.close();
    await until(() => down.caster.stats().mounts[0]?.source === null, 'the pull feed to notice the upstream left');
    const again = await upstreamCaster(port);
    await until(() => down.caster.stats().mounts[0]?.source === 'pull', 'the pull feed to reconnect');
    const rover = await Peer.connect(down.port);
    open.push(rover);
    rover.write(roverRequest('PULL1', 1, ['alice', 'alice-pw']));
    await rover.until((p) => p.text() === 'ICY 200 OK\r\n\r\n', 'rover accepted');
    again.source.write(frames[0] as Buffer);
    await rover.until((p) => p.body().length >= (frames[0] as Buffer).length, 'a frame after the reconnect');
    expect(rover.body()).toEqual(frames[0]);
  });
});
