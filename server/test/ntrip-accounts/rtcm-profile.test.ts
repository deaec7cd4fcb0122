import { PROFILE_SUFFIXES } from '@portal/caster';
import { PROFILE_MOUNTPOINT_SUFFIXES } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessChangeReason } from '../../src/modules/ntrip-accounts/index.ts';
import { testDatabaseKind } from '../support/database.ts';
import { createAccount } from '../support/factories.ts';
import { buildTestApp, type TestContext } from '../support/test-app.ts';

describe(`RTCM output profile of an NTRIP account (issue 36) on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  const changes: Array<{ accountId: string; reason: AccessChangeReason }> = [];

  beforeAll(async () => {
    t = await buildTestApp({
      ntripAccounts: {
        access: { accessChanged: (c) => void changes.push({ accountId: c.accountId, reason: c.reason }) },
      },
    });
  });
  afterAll(() => t.close());

  it('a new account gets the station’s frames as sent, every constellation', async () => {
    const user = await t.buildUser();
    const { account } = await createAccount(t, user);
    expect(account).toMatchObject({ rtcmProfile: 'as-sent', constellations: null });
  });

  it('PATCH sets the profile and the constellations; the answer and later reads show both', async () => {
    const user = await t.buildUser();
    const { account } = await createAccount(t, user);
    const url = `/api/ntrip-accounts/${account.id}`;
    const profile = await t.app.inject({
      method: 'PATCH',
      url,
      headers: user.headers,
      payload: { rtcmProfile: 'legacy' },
    });
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({ rtcmProfile: 'legacy', constellations: null });
    expect(changes).toContainEqual({ accountId: account.id, reason: 'profile' });

    const filter = await t.app.inject({
      method: 'PATCH',
      url,
      headers: user.headers,
      payload: { constellations: ['GLO', 'GPS'] },
    });
    // Stored in the fixed order GPS, GLO, GAL, BDS, QZS, IRN, SBAS whatever order they came in.
    expect(filter.json()).toMatchObject({ rtcmProfile: 'legacy', constellations: ['GPS', 'GLO'] });
    const read = await t.app.inject({ method: 'GET', url, headers: user.headers });
    expect(read.json()).toMatchObject({ rtcmProfile: 'legacy', constellations: ['GPS', 'GLO'] });
    const list = await t.app.inject({ method: 'GET', url: '/api/ntrip-accounts', headers: user.headers });
    expect(list.json().items[0]).toMatchObject({ rtcmProfile: 'legacy', constellations: ['GPS', 'GLO'] });

    const all = await t.app.inject({
      method: 'PATCH',
      url,
      headers: user.headers,
      payload: { rtcmProfile: 'msm4', constellations: null },
    });
    expect(all.json()).toMatchObject({ rtcmProfile: 'msm4', constellations: null });
  });

  it('refuses an unknown profile, an unknown, repeated or empty constellation list, and changes nothing', async () => {
    const user = await t.buildUser();
    const { account } = await createAccount(t, user);
    const url = `/api/ntrip-accounts/${account.id}`;
    for (const payload of [
      { rtcmProfile: 'msm7' },
      { rtcmProfile: null },
      { constellations: ['GPS', 'MARS'] },
      { constellations: ['GPS', 'GPS'] },
      { constellations: [] },
      { constellations: 'GPS' },
    ]) {
      const res = await t.app.inject({ method: 'PATCH', url, headers: user.headers, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    const read = await t.app.inject({ method: 'GET', url, headers: user.headers });
    expect(read.json()).toMatchObject({ rtcmProfile: 'as-sent', constellations: null });
  });

  it('another user cannot change the profile', async () => {
    const owner = await t.buildUser();
    const other = await t.buildUser();
    const { account } = await createAccount(t, owner);
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/ntrip-accounts/${account.id}`,
      headers: other.headers,
      payload: { rtcmProfile: 'msm4' },
    });
    expect(res.statusCode).toBe(404);
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/ntrip-accounts/${account.id}`,
      headers: owner.headers,
    });
    expect(read.json().rtcmProfile).toBe('as-sent');
  });

  it('the connection card names the mountpoint suffixes the caster reads', () => {
    expect(Object.fromEntries(PROFILE_SUFFIXES.map(([suffix, profile]) => [profile, suffix]))).toEqual(
      PROFILE_MOUNTPOINT_SUFFIXES,
    );
  });
});
