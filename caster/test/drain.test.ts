import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type Caster, createCaster } from '../src/index.ts';
import { Peer, roverRequest } from './support/client.ts';
import { FakePorts } from './support/fakes.ts';

const open: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close();
});

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

describe('draining a caster node', () => {
  it('takes no new connection and closes its rovers spread over the drain time, then its source', async () => {
    const ports = new FakePorts();
    ports.addNetwork('nl').addStation('AMS1', 'nl', 52.37, 4.9);
    ports.accounts.push({ username: 'alice', password: 'pw', accountId: 'acc', networks: ['nl'], maxConnections: 20 });
    const caster: Caster = await createCaster({ ports, logger: { info() {}, warn() {}, error() {} } });
    open.push(caster);
    const { port } = await caster.listen(0, '127.0.0.1');
    const source = await Peer.connect(port);
    open.push(source);
    source.write('SOURCE src-secret /AMS1\r\nSource-Agent: NTRIP test\r\n\r\n');
    await source.until((p) => p.text().startsWith('ICY 200 OK'), 'the source login');
    const rovers: Peer[] = [];
    for (let i = 0; i < 10; i++) {
      const rover = await Peer.connect(port);
      open.push(rover);
      rover.write(roverRequest('AMS1', 1, ['alice', 'pw']));
      await rover.until((p) => p.text().startsWith('ICY 200 OK'), 'a rover login');
      rovers.push(rover);
    }
    const closedAt: number[] = [];
    for (const rover of rovers) rover.socket.once('close', () => closedAt.push(Date.now()));
    const started = Date.now();
    const drained = caster.drain(1000);
    expect(await refused(port)).toBe(true);
    await drained;
    expect(closedAt).toHaveLength(10);
    // Spread over the drain time, not all at once: the last one closes most of a second after the first.
    expect(Math.max(...closedAt) - Math.min(...closedAt)).toBeGreaterThanOrEqual(500);
    expect(Math.min(...closedAt) - started).toBeLessThan(1000);
    await source.until((p) => p.closed, 'the source closed');
  });
});
