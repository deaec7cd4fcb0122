/**
 * A caster on the native port in a process of its own, so a test can give it resources of its own (a descriptor
 * limit): rover `alice` (password `alice-pw`) may log in to AMS1. Its limits are the JSON of its first argument; it
 * prints `port N` once it listens on 127.0.0.1 and serves until it is killed.
 */

import { createCaster } from '../../src/index.ts';
import { FakePorts } from './fakes.ts';

const ports = new FakePorts().addNetwork('nl').addStation('AMS1', 'nl', 52.37, 4.9);
ports.accounts.push({
  username: 'alice',
  password: 'alice-pw',
  accountId: 'acc-alice',
  networks: ['nl'],
  maxConnections: 1000,
});
const caster = await createCaster({
  ports,
  nativeIo: true,
  logger: { info() {}, warn() {}, error() {} },
  limits: JSON.parse(process.argv[2] ?? '{}'),
});
const { port } = await caster.listen(0, '127.0.0.1');
process.stdout.write(`port ${port}\n`);
