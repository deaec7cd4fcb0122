import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_PROJECT_ID, emulatorClient } from '../src/dev/auth-emulator.ts';
import { emulatorAuth, reconcileWithAuthEmulator } from '../src/seed/reconcile-emulator.ts';
import { testDatabaseKind } from './support/database.ts';
import { buildTestApp, type TestContext, type TestUser } from './support/test-app.ts';

describe(`the database and the Auth Emulator brought together at start on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let emulator: ReturnType<typeof emulatorClient>;
  beforeAll(async () => {
    t = await buildTestApp();
    emulator = emulatorClient(inject('authEmulatorHost'));
  });
  afterAll(() => t.close());

  const reconcile = (passwords?: ReadonlyMap<string, string>) =>
    reconcileWithAuthEmulator(t.db, { projectId: DEMO_PROJECT_ID, ...(passwords && { passwords }) });

  /** What the SPA asks right after a login; the terms acceptance shows which users row answered. */
  const userInfo = async (idToken: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/user',
      headers: { authorization: `Bearer ${idToken}` },
    });
    return { status: res.statusCode, body: res.json() as { termsAcceptedAt: string | null } };
  };

  const acceptedAt = async (user: TestUser) => (await userInfo(user.token)).body.termsAcceptedAt;

  it('hands the portal user to the account a person made again with the same address', async () => {
    const user = await t.buildUser();
    const accepted = await acceptedAt(user);
    // The emulator lost the account; the person signed up again and got a new uid.
    await emulatorAuth(DEMO_PROJECT_ID).deleteUser(user.uid);
    const again = await emulator.signUp(user.email, 'a-new-password');

    expect(await reconcile()).toEqual([expect.stringContaining(`${user.email} signed up again`)]);
    expect(await userInfo(again.idToken)).toEqual({
      status: 200,
      body: expect.objectContaining({ termsAcceptedAt: accepted }),
    });
    expect(await reconcile()).toEqual([]);
  });

  it('makes a lost account again under its portal uid, without a password, and prints a link that sets one', async () => {
    const user = await t.buildUser();
    const accepted = await acceptedAt(user);
    await emulatorAuth(DEMO_PROJECT_ID).deleteUser(user.uid);

    const [line, ...rest] = await reconcile();
    expect(rest).toEqual([]);
    const link = /Set one: (\S+)NEW_PASSWORD$/.exec(line ?? '')?.[1];
    expect(link, line).toBeDefined();
    await expect(emulator.signIn(user.email, 'correct-horse-battery')).rejects.toThrow();
    expect((await fetch(`${link}chosen-password`)).status).toBe(200);

    const signedIn = await emulator.signIn(user.email, 'chosen-password');
    expect(signedIn.localId).toBe(user.uid);
    expect((await userInfo(signedIn.idToken)).body.termsAcceptedAt).toBe(accepted);
  });

  it('makes a lost account again with the password it is given (the demo accounts)', async () => {
    const user = await t.buildUser();
    await emulatorAuth(DEMO_PROJECT_ID).deleteUser(user.uid);

    expect(await reconcile(new Map([[user.email, 'known-password']]))).toEqual([
      expect.stringContaining(`${user.email} was missing; made again with its demo password`),
    ]);
    expect((await emulator.signIn(user.email, 'known-password')).localId).toBe(user.uid);
  });

  it('leaves accounts and users that agree, and users without an e-mail (deleted accounts), alone', async () => {
    const kept = await t.buildUser();
    const deleted = await t.buildUser();
    // What deleting an account leaves: the Firebase account gone, the row anonymised.
    await emulatorAuth(DEMO_PROJECT_ID).deleteUser(deleted.uid);
    await t.db.updateTable('users').set({ email: null, disabled: true }).where('id', '=', deleted.userId).execute();

    expect(await reconcile()).toEqual([]);
    expect((await emulator.signIn(kept.email, 'correct-horse-battery')).localId).toBe(kept.uid);
    await expect(emulatorAuth(DEMO_PROJECT_ID).getUser(deleted.uid)).rejects.toThrow();
  });
});
