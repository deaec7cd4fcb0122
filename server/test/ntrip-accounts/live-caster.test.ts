import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CasterService } from '../../src/modules/ntrip/index.ts';
import { startTestCaster } from '../support/caster.ts';
import { testDatabaseKind } from '../support/database.ts';
import { activate, createAccount, createNetwork, createStation, grantTokens } from '../support/factories.ts';
import { buildTestApp, type TestContext, type TestUser } from '../support/test-app.ts';

/** An NTRIP 1 rover over a real socket; resolves once the caster answered `ICY 200 OK`. */
function rover(port: number, mountpoint: string, username: string, password: string) {
  return new Promise<{ socket: Socket; closed: Promise<void> }>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    let head = '';
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1');
      if (head.startsWith('ICY 200 OK')) resolve({ socket, closed });
      else if (head.includes('\r\n')) reject(new Error(`caster answered ${head.split('\r\n')[0]}`));
    });
    const auth = Buffer.from(`${username}:${password}`).toString('base64');
    socket.write(`GET /${mountpoint} HTTP/1.0\r\nUser-Agent: NTRIP test\r\nAuthorization: Basic ${auth}\r\n\r\n`);
  });
}

/** The running caster wired to the accounts module as main.ts wires it: live counts and the access-change hook. */
describe(`NTRIP accounts with a running caster on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let admin: TestUser;
  let caster: CasterService | undefined;
  let mountpoint: string;
  let network: { id: string; slug: string };

  beforeAll(async () => {
    t = await buildTestApp({
      ntripAccounts: {
        access: { accessChanged: (c) => caster?.accessChanged(c) },
        live: { connectionsByAccount: (ids) => caster?.caster.connectionsByAccount(ids) ?? new Map() },
      },
    });
    admin = await t.buildAdmin();
    network = await createNetwork(t.db, { price: 5 });
    mountpoint = `LV${network.slug.slice(-6).toUpperCase()}`;
    await createStation(t.db, network.id, mountpoint);
    caster = await startTestCaster(t.db);
  });
  afterAll(async () => {
    await caster?.close();
    await t?.close();
  });

  async function connectedAccount() {
    const user = await t.buildUser();
    await grantTokens(t, admin, user, 50);
    const { account, password } = await createAccount(t, user);
    expect((await activate(t, user, account.id, network.id, 1)).statusCode).toBe(201);
    const port = caster?.port ?? 0;
    const connection = await rover(port, mountpoint, account.username, password);
    return { user, account, password, connection };
  }

  it('shows a connected rover on the account and closes its connection within seconds of a delete', async () => {
    const { user, account, connection } = await connectedAccount();
    const listed = await t.app.inject({
      method: 'GET',
      url: `/api/ntrip-accounts/${account.id}`,
      headers: user.headers,
    });
    expect(listed.json()).toMatchObject({ connectedNow: 1, status: 'active' });

    const started = Date.now();
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/ntrip-accounts/${account.id}`,
      headers: user.headers,
    });
    expect(res.statusCode).toBe(204);
    await connection.closed;
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('closes the connection when the owner disables the account', async () => {
    const { user, account, password, connection } = await connectedAccount();
    await t.app.inject({
      method: 'PATCH',
      url: `/api/ntrip-accounts/${account.id}`,
      headers: user.headers,
      payload: { enabled: false },
    });
    await connection.closed;
    // And the right password no longer opens it.
    await expect(rover(caster?.port ?? 0, mountpoint, account.username, password)).rejects.toThrow(/caster answered/);
  });

  it('refuses a second rover once an admin lowers the account’s limit, keeping the connection already open', async () => {
    const { account, password, connection } = await connectedAccount();
    const port = caster?.port ?? 0;
    const setLimit = (maxConnections: number) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/admin/ntrip-accounts/${account.id}/max-connections`,
        headers: admin.headers,
        payload: { maxConnections },
      });
    await expect(rover(port, mountpoint, account.username, password)).rejects.toThrow(/429/);

    expect((await setLimit(2)).statusCode).toBe(200);
    const second = await rover(port, mountpoint, account.username, password);
    second.socket.destroy();
    await second.closed;

    // The decision cached for the second login still says 2; lowering the limit must not let a rover past it.
    expect((await setLimit(1)).statusCode).toBe(200);
    await expect(rover(port, mountpoint, account.username, password)).rejects.toThrow(/429/);
    expect(connection.socket.destroyed).toBe(false);
    connection.socket.destroy();
    await connection.closed;
  });
});
