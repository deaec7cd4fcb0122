import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../../caster/test/support/wait.ts';
import { createAuthorizer } from '../../src/modules/ntrip/ntrip.authorizer.ts';
import { createNtripRepo } from '../../src/modules/ntrip/ntrip.repo.ts';
import { testDatabaseKind } from '../support/database.ts';
import { activate, createAccount, createNetwork, createStation, grantTokens } from '../support/factories.ts';
import { buildTestApp, type TestContext, type TestUser } from '../support/test-app.ts';

/**
 * What the accounts calls do to the caster's decisions: the ntrip module's real authorizer on the same database,
 * invalidated through the access-change hook as main.ts wires it.
 */
describe(`NTRIP accounts and the caster's authorisation on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let admin: TestUser;
  let authorizer: ReturnType<typeof createAuthorizer>;
  let network: { id: string; slug: string };
  const disconnected: string[] = [];

  beforeAll(async () => {
    let onChange = (_accountId: string, _reason: string) => {};
    t = await buildTestApp({
      ntripAccounts: { access: { accessChanged: (c) => onChange(c.accountId, c.reason) } },
    });
    authorizer = createAuthorizer({ repo: createNtripRepo(t.db), ttlMs: 60_000, epochPollMs: 60_000 });
    onChange = (accountId, reason) => {
      authorizer.invalidate();
      if (reason === 'deleted' || reason === 'disabled' || reason === 'password') disconnected.push(accountId);
    };
    admin = await t.buildAdmin();
    network = await createNetwork(t.db, { price: 5 });
    await createStation(t.db, network.id, `ST${network.slug.slice(-6)}`);
  });
  afterAll(async () => {
    authorizer?.close();
    await t?.close();
  });

  const near = () => `${network.slug.toUpperCase()}_NEAR`;

  it('a new account may log in only once tokens are activated on the network', async () => {
    const user = await t.buildUser();
    await grantTokens(t, admin, user, 50);
    const { account, password } = await createAccount(t, user);
    // The refusal names the account and the network, never activated, for the account's refused-attempts list.
    expect(await authorizer.authorize(account.username, password, near(), new Date())).toEqual({
      allowed: false,
      reason: 'no_grant',
      accountId: account.id,
      network: { slug: network.slug, name: `Network ${network.slug}` },
      accessEndedAt: null,
    });
    expect((await activate(t, user, account.id, network.id, 1)).statusCode).toBe(201);
    expect(await authorizer.authorize(account.username, password, near(), new Date())).toMatchObject({
      allowed: true,
      accountId: account.id,
    });
  });

  it('deleting an account ends its grants’ use: the caster refuses it and closes its connections', async () => {
    const user = await t.buildUser();
    await grantTokens(t, admin, user, 50);
    const { account, password } = await createAccount(t, user);
    await activate(t, user, account.id, network.id, 3);
    expect(await authorizer.authorize(account.username, password, near(), new Date())).toMatchObject({ allowed: true });

    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/ntrip-accounts/${account.id}`,
      headers: user.headers,
    });
    expect(res.statusCode).toBe(204);
    expect(disconnected).toContain(account.id);
    const after = await authorizer.authorize(account.username, password, near(), new Date());
    expect(after.allowed).toBe(false);
    const station = await authorizer.authorize(account.username, password, `ST${network.slug.slice(-6)}`, new Date());
    expect(station.allowed).toBe(false);
  });

  it('disabling refuses the account at once; a regenerated password replaces the old one', async () => {
    const user = await t.buildUser();
    await grantTokens(t, admin, user, 50);
    const { account, password } = await createAccount(t, user);
    await activate(t, user, account.id, network.id, 1);
    expect((await authorizer.authorize(account.username, password, near(), new Date())).allowed).toBe(true);

    await t.app.inject({
      method: 'PATCH',
      url: `/api/ntrip-accounts/${account.id}`,
      headers: user.headers,
      payload: { enabled: false },
    });
    expect(await authorizer.authorize(account.username, password, near(), new Date())).toEqual({
      allowed: false,
      reason: 'disabled',
      accountId: account.id,
      disabled: 'account',
    });
    await t.app.inject({
      method: 'PATCH',
      url: `/api/ntrip-accounts/${account.id}`,
      headers: user.headers,
      payload: { enabled: true },
    });
    const regenerated = await t.app.inject({
      method: 'POST',
      url: `/api/ntrip-accounts/${account.id}/password`,
      headers: user.headers,
    });
    const next = regenerated.json().password as string;
    expect((await authorizer.authorize(account.username, password, near(), new Date())).allowed).toBe(false);
    expect((await authorizer.authorize(account.username, next, near(), new Date())).allowed).toBe(true);
  });

  it('a password already checked is not hashed again after the decisions were cleared (a reconnection storm)', async () => {
    const user = await t.buildUser();
    await grantTokens(t, admin, user, 50);
    const { account, password } = await createAccount(t, user);
    await activate(t, user, account.id, network.id, 1);
    expect((await authorizer.authorize(account.username, password, near(), new Date())).allowed).toBe(true);
    const checked = authorizer.verifications;
    authorizer.invalidate();
    expect((await authorizer.authorize(account.username, password, near(), new Date())).allowed).toBe(true);
    expect(authorizer.verifications).toBe(checked);
    // A wrong password is hashed every time.
    expect((await authorizer.authorize(account.username, `${password}x`, near(), new Date())).allowed).toBe(false);
    expect(authorizer.verifications).toBe(checked + 1);
  });

  it('logins of different accounts arriving together read their accounts in one query (a reconnection storm)', async () => {
    const user = await t.buildUser();
    await grantTokens(t, admin, user, 50);
    const logins: Array<Awaited<ReturnType<typeof createAccount>>> = [];
    for (const label of ['Rover A', 'Rover B', 'Rover C']) {
      const login = await createAccount(t, user, label);
      await activate(t, user, login.account.id, network.id, 1);
      logins.push(login);
    }
    const [a, b, c] = logins as [(typeof logins)[0], (typeof logins)[0], (typeof logins)[0]];
    const repo = createNtripRepo(t.db);
    const asked: string[][] = [];
    const storm = createAuthorizer({
      repo: {
        ...repo,
        accountsForLogin: (names) => {
          asked.push([...names]);
          return repo.accountsForLogin(names);
        },
      },
      epochPollMs: 60_000,
    });
    try {
      // The first spells its name in capitals: names match without regard to case.
      const decisions = await Promise.all([
        storm.authorize(a.account.username.toUpperCase(), a.password, near(), new Date()),
        storm.authorize(b.account.username, b.password, near(), new Date()),
        storm.authorize(c.account.username, `${c.password}x`, near(), new Date()),
        storm.authorize('nobody-by-this-name', 'x', near(), new Date()),
      ]);
      expect(decisions.map((d) => (d.allowed ? 'allowed' : d.reason))).toEqual([
        'allowed',
        'allowed',
        'bad_credentials',
        'bad_credentials',
      ]);
      expect(decisions[0]).toMatchObject({ accountId: a.account.id });
      expect(decisions[2]).toMatchObject({ accountId: c.account.id });
      expect(asked).toHaveLength(1);
      expect(asked[0]).toHaveLength(4);
    } finally {
      storm.close();
    }
  });

  it('a new connection limit reaches the cached decision at once, and moves the auth epoch for other casters', async () => {
    const user = await t.buildUser();
    await grantTokens(t, admin, user, 50);
    const { account, password } = await createAccount(t, user);
    await activate(t, user, account.id, network.id, 1);
    expect(await authorizer.authorize(account.username, password, near(), new Date())).toMatchObject({
      allowed: true,
      maxConnections: 1,
    });
    const repo = createNtripRepo(t.db);
    const epochBefore = await repo.authEpoch();

    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/ntrip-accounts/${account.id}/max-connections`,
      headers: admin.headers,
      payload: { maxConnections: 3 },
    });
    expect(res.statusCode).toBe(200);
    expect(await authorizer.authorize(account.username, password, near(), new Date())).toMatchObject({
      allowed: true,
      maxConnections: 3,
    });
    expect(await repo.authEpoch()).toBeGreaterThan(epochBefore);
    // A lower limit applies to the next login; the connections open now are not ended at once (the caster's access
    // check, which reads the limit, trims the newest past it: ADR 0040).
    expect(disconnected).not.toContain(account.id);
    expect((await authorizer.access([account.id], new Date())).get(account.id)?.maxConnections).toBe(3);
  });

  it('an allowed answer says how long it holds, and every change that may end it is told to the caster (ADR 0100)', async () => {
    const user = await t.buildUser();
    await grantTokens(t, admin, user, 50);
    const { account, password } = await createAccount(t, user);
    await activate(t, user, account.id, network.id, 1);
    // Another caster process: it learns of changes from the auth epoch, not from this process's calls.
    const other = createAuthorizer({ repo: createNtripRepo(t.db), ttlMs: 60_000, epochPollMs: 20 });
    try {
      let told = 0;
      other.onChange(() => told++);
      const first = await other.authorize(account.username, password, near(), new Date());
      expect(first).toMatchObject({ allowed: true });
      const reusableMs = first.allowed ? first.reusableMs : undefined;
      expect(reusableMs).toBeGreaterThan(59_000);
      expect(reusableMs).toBeLessThanOrEqual(60_000);
      const wrong = await other.authorize(account.username, `${password}x`, near(), new Date());
      expect(wrong).not.toHaveProperty('reusableMs');
      // The other process reads the epoch (every 20 ms) before the change, so the change moves it past what it read.
      await new Promise((r) => setTimeout(r, 100));
      const before = told;
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/admin/ntrip-accounts/${account.id}/max-connections`,
        headers: admin.headers,
        payload: { maxConnections: 2 },
      });
      expect(res.statusCode).toBe(200);
      await until(() => told > before, 'the change told to the other caster');
      expect(await other.authorize(account.username, password, near(), new Date())).toMatchObject({
        maxConnections: 2,
      });
    } finally {
      other.close();
    }
  });

  it('a control character in a username or password is a wrong login, never a database error (issue 31)', async () => {
    const user = await t.buildUser();
    await grantTokens(t, admin, user, 50);
    const { account, password } = await createAccount(t, user);
    await activate(t, user, account.id, network.id, 1);
    for (const [name, secret] of [
      [`${account.username}\0`, password],
      ['\0', 'x'],
      [account.username, `${password}\0`],
      [account.username, `\u0001${password}`],
    ] as const) {
      expect(await authorizer.authorize(name, secret, near(), new Date())).toEqual({
        allowed: false,
        reason: 'bad_credentials',
      });
    }
  });
});
