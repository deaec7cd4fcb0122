import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../support/database.ts';
import { buildTestApp, type TestContext, type TestUser } from '../support/test-app.ts';

interface CreatedKey {
  id: string;
  key: string;
  prefix: string;
  scopes: string[];
}

describe(`API keys (issue 37) on ${testDatabaseKind()}`, { timeout: 60_000 }, () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  async function makeKey(user: TestUser, body: object, url = '/api/api-keys'): Promise<CreatedKey> {
    const res = await t.app.inject({ method: 'POST', url, headers: user.headers, payload: body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as CreatedKey;
  }
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

  it('a key with ntrip-accounts:write creates an account, shown once and kept only as a hash', async () => {
    const user = await t.buildUser();
    const created = await makeKey(user, { name: 'Fleet', scopes: ['ntrip-accounts:write', 'ntrip-accounts:read'] });
    expect(created.key.startsWith(created.prefix)).toBe(true);

    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ntrip-accounts',
      headers: bearer(created.key),
      payload: { label: 'Drone 1' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const list = await t.app.inject({ method: 'GET', url: '/api/ntrip-accounts', headers: user.headers });
    expect(list.json().items.map((a: { label: string }) => a.label)).toEqual(['Drone 1']);

    const keys = await t.app.inject({ method: 'GET', url: '/api/api-keys', headers: user.headers });
    const [listed] = keys.json().items;
    expect(listed).toMatchObject({ id: created.id, prefix: created.prefix, lastUsedIp: '127.0.0.1' });
    expect(listed.lastUsedAt).not.toBeNull();
    expect(JSON.stringify(keys.json())).not.toContain(created.key);
    const row = await t.db.selectFrom('api_keys').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(created.key.slice(created.prefix.length + 1));

    // The write is in the audit log, naming the key.
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['action', 'actor_user_id', 'after'])
      .where('target_id', '=', created.id)
      .where('action', '=', 'api_key.write')
      .execute();
    expect(audit).toEqual([
      expect.objectContaining({
        actor_user_id: user.userId,
        after: expect.objectContaining({ method: 'POST', route: '/api/ntrip-accounts', status: 201 }),
      }),
    ]);
  });

  it('a read-only key gets 403 naming the missing scope, and keys are never taken by key management', async () => {
    const user = await t.buildUser();
    const { key } = await makeKey(user, { name: 'Reader', scopes: ['ntrip-accounts:read'] });
    const read = await t.app.inject({ method: 'GET', url: '/api/ntrip-accounts', headers: bearer(key) });
    expect(read.statusCode).toBe(200);
    const write = await t.app.inject({
      method: 'POST',
      url: '/api/ntrip-accounts',
      headers: bearer(key),
      payload: { label: 'Nope' },
    });
    expect(write.statusCode).toBe(403);
    expect(write.json()).toMatchObject({ code: 'api_key_scope', scope: 'ntrip-accounts:write' });
    expect(write.json().message).toContain('ntrip-accounts:write');
    // A leaked key cannot make itself more keys.
    const more = await t.app.inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: bearer(key),
      payload: { name: 'x', scopes: ['ntrip-accounts:write'] },
    });
    expect(more.statusCode).toBe(403);
    expect(more.json().code).toBe('api_key_not_accepted');
  });

  it('a revoked key is refused 401 at once, and so is an expired one', async () => {
    const user = await t.buildUser();
    const created = await makeKey(user, { name: 'Soon gone', scopes: ['ntrip-accounts:read'] });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/ntrip-accounts', headers: bearer(created.key) })).statusCode,
    ).toBe(200);
    const revoke = await t.app.inject({ method: 'DELETE', url: `/api/api-keys/${created.id}`, headers: user.headers });
    expect(revoke.statusCode).toBe(204);
    const after = await t.app.inject({ method: 'GET', url: '/api/ntrip-accounts', headers: bearer(created.key) });
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('api_key_invalid');

    const expiring = await makeKey(user, {
      name: 'Expiring',
      scopes: ['ntrip-accounts:read'],
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    await t.db
      .updateTable('api_keys')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', expiring.id)
      .execute();
    const expired = await t.app.inject({ method: 'GET', url: '/api/ntrip-accounts', headers: bearer(expiring.key) });
    expect(expired.statusCode).toBe(401);
    // Another user cannot revoke someone else's key.
    const other = await t.buildUser();
    const foreign = await t.app.inject({
      method: 'DELETE',
      url: `/api/api-keys/${expiring.id}`,
      headers: other.headers,
    });
    expect(foreign.statusCode).toBe(404);
    // A forged key with a real prefix is refused too.
    const forged = `${expiring.prefix}_${'A'.repeat(43)}`;
    const res = await t.app.inject({ method: 'GET', url: '/api/ntrip-accounts', headers: bearer(forged) });
    expect(res.statusCode).toBe(401);
  });

  it("an organisation's key acts only on its organisation, and only its admins make one", async () => {
    const owner = await t.buildUser();
    const member = await t.buildUser();
    const orgRes = await t.app.inject({
      method: 'POST',
      url: '/api/organization',
      headers: owner.headers,
      payload: { name: 'Fleet Co' },
    });
    const orgIdOf = (value: string) => new URL(value, 'http://x').searchParams.get('org') ?? '';
    const orgId = orgIdOf(orgRes.json().value);
    const otherOrg = orgIdOf(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/organization',
          headers: owner.headers,
          payload: { name: 'Other' },
        })
      ).json().value,
    );

    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/org/${orgId}/api-keys`,
      headers: member.headers,
      payload: { name: 'x', scopes: ['ntrip-accounts:write'] },
    });
    expect(refused.statusCode).toBe(404);

    const { key, id } = await makeKey(
      owner,
      { name: 'Org robot', scopes: ['ntrip-accounts:write', 'ntrip-accounts:read'] },
      `/api/org/${orgId}/api-keys`,
    );
    const inOrg = await t.app.inject({
      method: 'POST',
      url: `/api/org/${orgId}/ntrip-accounts`,
      headers: bearer(key),
      payload: { label: 'Org rover' },
    });
    expect(inOrg.statusCode, inOrg.body).toBe(201);
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: `/api/org/${otherOrg}/ntrip-accounts`,
      headers: bearer(key),
      payload: { label: 'Not here' },
    });
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json().code).toBe('api_key_not_accepted');
    const personal = await t.app.inject({
      method: 'POST',
      url: '/api/ntrip-accounts',
      headers: bearer(key),
      payload: { label: 'Mine' },
    });
    expect(personal.statusCode).toBe(403);

    const listed = await t.app.inject({ method: 'GET', url: `/api/org/${orgId}/api-keys`, headers: owner.headers });
    expect(listed.json().items.map((k: { id: string }) => k.id)).toEqual([id]);
    // The owner's own list is of their personal keys only.
    const own = await t.app.inject({ method: 'GET', url: '/api/api-keys', headers: owner.headers });
    expect(own.json().items).toEqual([]);
  });

  it('the OpenAPI document marks the operations that take keys, their scopes and Idempotency-Key', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    expect(doc.paths['/api/ntrip-accounts'].post).toMatchObject({
      'x-api-key-scope': 'ntrip-accounts:write',
      'x-idempotency-key': true,
      security: [{ bearer: [] }, { apiKey: [] }],
    });
    expect(doc.paths['/api/tokens'].post['x-api-key-scope']).toBe('activations:write');
    expect(doc.paths['/api/admin/ntrip-accounts'].get['x-api-key-scope']).toBeUndefined();
  });

  it('admin routes refuse keys, even an administrator’s', async () => {
    const admin = await t.buildAdmin();
    const { key } = await makeKey(admin, {
      name: 'Admin robot',
      scopes: ['ntrip-accounts:read', 'ntrip-accounts:write', 'usage:read', 'billing:read'],
    });
    for (const url of ['/api/admin/ntrip-accounts', '/api/admin/users', '/api/admin/audit']) {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(key) });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().code).toBe('api_key_not_accepted');
    }
  });
});
