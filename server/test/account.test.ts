import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { emulatorClient } from '../src/dev/auth-emulator.ts';
import {
  type AccountDeletionDeps,
  createAccountDeletion,
} from '../src/modules/account-deletion/account-deletion.service.ts';
import { sniffImageType } from '../src/modules/users/account.service.ts';
import type { Actor } from '../src/shared/actor.ts';
import { testDatabaseKind } from './support/database.ts';
import { buildTestApp, type TestContext, type TestUser } from './support/test-app.ts';

/** A 1×1 transparent PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG_START = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]);

const PUBLIC_URL = 'https://portal.example.test';

describe(`profile photo and account deletion on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await buildTestApp({ publicUrl: PUBLIC_URL });
  });
  afterAll(() => t.close());

  const upload = (user: TestUser | undefined, body: Buffer, contentType = 'image/png', extra = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/user/photo',
      headers: { ...(user?.headers ?? {}), 'content-type': contentType, ...extra },
      payload: body,
    });

  // Issue 16: the stored address took its host from a client-sent X-Forwarded-Host.
  it('builds the photo address on PUBLIC_URL whatever Host and X-Forwarded-Host say', async () => {
    const user = await t.buildUser();
    const res = await upload(user, PNG, 'image/png', {
      host: 'evil.example',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'http',
    });
    expect(res.statusCode).toBe(200);
    const { photoURL } = res.json() as { photoURL: string };
    expect(photoURL.startsWith(`${PUBLIC_URL}/api/users/${user.userId}/photo?v=`)).toBe(true);
    const row = await t.db.selectFrom('users').select('photo_url').where('id', '=', user.userId).executeTakeFirst();
    expect(row?.photo_url).toBe(photoURL);
  });

  it('stores an uploaded photo and serves it publicly with an ETag', async () => {
    const user = await t.buildUser();
    const res = await upload(user, PNG);
    expect(res.statusCode).toBe(200);
    const { photoURL } = res.json() as { photoURL: string };
    expect(photoURL).toMatch(new RegExp(`^${PUBLIC_URL}/api/users/${user.userId}/photo\\?v=[0-9a-f]{12}$`));
    const path = new URL(photoURL).pathname;
    const served = await t.app.inject({ method: 'GET', url: path });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(PNG)).toBe(true);
    const again = await t.app.inject({
      method: 'GET',
      url: path,
      headers: { 'if-none-match': String(served.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    const row = await t.db.selectFrom('users').select('photo_url').where('id', '=', user.userId).executeTakeFirst();
    expect(row?.photo_url).toBe(photoURL);
  });

  it('refuses anonymous uploads, other types, content that is not what it claims, and large files', async () => {
    const user = await t.buildUser();
    expect((await upload(undefined, PNG)).statusCode).toBe(401);
    expect((await upload(user, Buffer.from('<svg/>'), 'image/svg+xml')).statusCode).toBe(415);
    const disguised = await upload(user, JPEG_START, 'image/png');
    expect(disguised.statusCode).toBe(415);
    expect(disguised.json().code).toBe('unsupported_image');
    const large = await upload(user, Buffer.concat([PNG, Buffer.alloc(600 * 1024)]));
    expect(large.statusCode).toBe(413);
    expect(large.json().code).toBe('payload_too_large');
  });

  it('removes the photo', async () => {
    const user = await t.buildUser();
    const { photoURL } = (await upload(user, PNG)).json() as { photoURL: string };
    const del = await t.app.inject({ method: 'DELETE', url: '/api/user/photo', headers: user.headers });
    expect(del.statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: new URL(photoURL).pathname })).statusCode).toBe(404);
  });

  it('deletes the account: Firebase account gone, personal data removed, the row anonymised and disabled', async () => {
    const emulator = emulatorClient(inject('authEmulatorHost'));
    const user = await t.buildUser({ displayName: 'Leaving Surveyor' });
    await upload(user, PNG);
    const soloOrg = await t.db
      .insertInto('organizations')
      .values({ name: `Solo ${user.userId.slice(0, 8)}`, created_by: user.userId })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('organization_members')
      .values({ organization_id: soloOrg.id, user_id: user.userId, role: 'owner' })
      .execute();
    const otherOwner = await t.buildUser();
    const sharedOrg = await t.db
      .insertInto('organizations')
      .values({ name: `Shared ${user.userId.slice(0, 8)}`, created_by: otherOwner.userId })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('organization_members')
      .values([
        { organization_id: sharedOrg.id, user_id: otherOwner.userId, role: 'owner' },
        { organization_id: sharedOrg.id, user_id: user.userId, role: 'member' },
      ])
      .execute();
    await t.db
      .insertInto('organization_invites')
      .values({ organization_id: sharedOrg.id, email: user.email.toUpperCase(), invited_by: otherOwner.userId })
      .execute();
    const ntrip = await t.db
      .insertInto('ntrip_accounts')
      .values({ owner_user_id: user.userId, username: `rover-${user.userId.slice(0, 8)}`, password_hash: 'x' })
      .returning('id')
      .executeTakeFirstOrThrow();

    const res = await t.app.inject({ method: 'DELETE', url: '/api/user', headers: user.headers });
    expect(res.statusCode).toBe(204);

    const row = await t.db.selectFrom('users').selectAll().where('id', '=', user.userId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      email: null,
      display_name: null,
      photo_url: null,
      disabled: true,
    });
    expect(await t.db.selectFrom('user_photos').select('user_id').where('user_id', '=', user.userId).execute()).toEqual(
      [],
    );
    expect(await t.db.selectFrom('organizations').select('id').where('id', '=', soloOrg.id).execute()).toEqual([]);
    expect(
      await t.db
        .selectFrom('organization_members')
        .select('role')
        .where('organization_id', '=', sharedOrg.id)
        .execute(),
    ).toEqual([{ role: 'owner' }]);
    expect(
      await t.db
        .selectFrom('organization_invites')
        .select('email')
        .where('organization_id', '=', sharedOrg.id)
        .execute(),
    ).toEqual([]);
    const account = await t.db
      .selectFrom('ntrip_accounts')
      .select(['enabled', 'deleted_at'])
      .where('id', '=', ntrip.id)
      .executeTakeFirstOrThrow();
    expect(account.enabled).toBe(false);
    expect(account.deleted_at).not.toBeNull();

    await expect(emulator.signIn(user.email, 'correct-horse-battery')).rejects.toThrow(
      /EMAIL_NOT_FOUND|USER_NOT_FOUND/,
    );
    // The emulator checks revocation, so the old token is refused outright.
    const after = await t.app.inject({ method: 'GET', url: '/api/user', headers: user.headers });
    expect(after.statusCode).toBe(401);

    // Production firebase-admin does not check revocation: a token issued before the deletion still verifies for
    // up to an hour. It must meet the disabled row, not bring the person back.
    const production = await buildApp({
      db: t.db,
      verifier: { verify: async () => ({ uid: user.uid, email: user.email, name: 'Leaving Surveyor' }) },
    });
    try {
      const stale = await production.inject({ method: 'GET', url: '/api/user', headers: user.headers });
      expect(stale.statusCode).toBe(403);
      expect(stale.json().code).toBe('account_disabled');
      const rows = await t.db.selectFrom('users').selectAll().where('firebase_uid', '=', user.uid).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ email: null, display_name: null, disabled: true });
    } finally {
      await production.close();
    }
  });

  it('refuses to delete the only owner of an organisation others belong to, changing nothing', async () => {
    const emulator = emulatorClient(inject('authEmulatorHost'));
    const owner = await t.buildUser();
    const member = await t.buildUser();
    const org = await t.db
      .insertInto('organizations')
      .values({ name: `Owned ${owner.userId.slice(0, 8)}`, created_by: owner.userId })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('organization_members')
      .values([
        { organization_id: org.id, user_id: owner.userId, role: 'owner' },
        { organization_id: org.id, user_id: member.userId, role: 'member' },
      ])
      .execute();
    const res = await t.app.inject({ method: 'DELETE', url: '/api/user', headers: owner.headers });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('sole_organization_owner');
    const row = await t.db.selectFrom('users').selectAll().where('id', '=', owner.userId).executeTakeFirstOrThrow();
    expect(row.email).toBe(owner.email);
    expect(row.disabled).toBe(false);
    await expect(emulator.signIn(owner.email, 'correct-horse-battery')).resolves.toMatchObject({ localId: owner.uid });
  });

  it('deletes only the caller, never another user', async () => {
    const a = await t.buildUser();
    const b = await t.buildUser();
    expect((await t.app.inject({ method: 'DELETE', url: '/api/user', headers: a.headers })).statusCode).toBe(204);
    const rowB = await t.db.selectFrom('users').selectAll().where('id', '=', b.userId).executeTakeFirstOrThrow();
    expect(rowB.disabled).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: b.headers })).statusCode).toBe(200);
  });

  it('answers 401 to anonymous deletion', async () => {
    expect((await t.app.inject({ method: 'DELETE', url: '/api/user' })).statusCode).toBe(401);
  });
});

describe('account deletion needs a recent sign-in', () => {
  const actor = (authTime?: number): Actor => ({
    userId: 'u1',
    uid: 'f1',
    email: 'a@example.test',
    emailVerified: true,
    isAdmin: false,
    termsAcceptedAt: new Date(),
    ...(authTime !== undefined && { authTime }),
  });
  // The modules the deletion spans, doing nothing: what is tested is the sign-in age check before them.
  const spans = {
    db: { transaction: () => ({ execute: (work: (trx: never) => Promise<unknown>) => work(undefined as never) }) },
    users: { emailOf: async () => null, anonymise: async () => {} },
    organizations: {
      ownedWithOthers: async () => [],
      deleteOrganization: async () => {},
      deleteForUser: async () => {},
      remove: async () => {},
    },
    ntripAccounts: { deleteAllOfOwner: async () => {}, deleteAllOfOrganization: async () => [] },
    demo: { deleteForUser: async () => {} },
    billing: { endSubscriptionsPaidBy: async () => {}, endSubscriptionsOfOrganization: async () => {} },
  } as unknown as Omit<AccountDeletionDeps, 'identity'>;

  it.each([
    ['signed in six minutes ago', 1_000 - 6 * 60, 'recent_login_required'],
    ['without an auth time', undefined, 'recent_login_required'],
  ])('refuses a caller %s', async (_name, authTime, code) => {
    const deleted: string[] = [];
    const service = createAccountDeletion({
      ...spans,
      identity: { deleteAccount: async (uid) => void deleted.push(uid) },
      now: () => new Date(1_000_000),
    });
    await expect(service.deleteAccount(actor(authTime))).rejects.toMatchObject({ statusCode: 403, code });
    expect(deleted).toEqual([]);
  });

  it('accepts a sign-in four minutes old', async () => {
    const deleted: string[] = [];
    const service = createAccountDeletion({
      ...spans,
      identity: { deleteAccount: async (uid) => void deleted.push(uid) },
      now: () => new Date(1_000_000),
    });
    await service.deleteAccount(actor(1_000 - 4 * 60));
    expect(deleted).toEqual(['f1']);
  });
});

describe('image sniffing', () => {
  it('recognises the four accepted signatures and nothing else', () => {
    expect(sniffImageType(PNG)).toBe('image/png');
    expect(sniffImageType(JPEG_START)).toBe('image/jpeg');
    expect(sniffImageType(Buffer.from('GIF89a\x01\x00'))).toBe('image/gif');
    expect(sniffImageType(Buffer.from('RIFF\x00\x00\x00\x00WEBPVP8 '))).toBe('image/webp');
    expect(sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
  });
});
