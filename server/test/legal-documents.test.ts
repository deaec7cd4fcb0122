import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoDocuments } from '../src/modules/documents/index.ts';
import { testDatabaseKind } from './support/database.ts';
import { buildTestApp, type TestContext } from './support/test-app.ts';

describe(`the demo's legal documents and accepting the version shown, on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await buildTestApp();
    await seedDemoDocuments(t.db);
  });
  afterAll(() => t.close());

  it('publishes the terms, privacy policy and DPA, readable without an account', async () => {
    for (const [kind, title, phrase] of [
      ['terms', 'Terms and conditions', 'RTCM 3 over NTRIP'],
      ['privacy', 'Privacy policy', 'Autoriteit Persoonsgegevens'],
      ['dpa', 'Data processing agreement', 'Article 28'],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url: `/api/documents/${kind}` });
      expect(res.statusCode, kind).toBe(200);
      expect(res.json()).toMatchObject({ kind, version: 1, title, language: 'en' });
      expect(res.json().body).toContain(phrase);
      expect(res.json().body).toContain('Meridian RTK B.V.');
    }
  });

  it('seeding again keeps an admin’s newer version and adds no second version 1', async () => {
    const admin = await t.buildAdmin();
    const published = await t.app.inject({
      method: 'POST',
      url: '/api/admin/documents/privacy',
      headers: admin.headers,
      payload: { title: 'Privacy policy', body: '# Our own policy\n\nWritten by the operator.' },
    });
    expect(published.statusCode).toBe(201);
    await seedDemoDocuments(t.db);
    const current = (await t.app.inject({ method: 'GET', url: '/api/documents/privacy' })).json();
    expect(current).toMatchObject({ version: 2, body: '# Our own policy\n\nWritten by the operator.' });
  });

  it('records the acceptance against the version shown, and refuses one shown before a newer was published', async () => {
    const user = await t.buildUser({ acceptTerms: false });
    const accept = (version: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/user/terms',
        headers: user.headers,
        payload: { accepted: true, version },
      });
    const stale = await accept(7);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({
      code: 'terms_changed',
      message: 'The terms changed: version 1 is in force now. Read it and accept again.',
    });
    const info = await t.app.inject({ method: 'GET', url: '/api/user', headers: user.headers });
    expect(info.json()).toMatchObject({ termsAcceptedAt: null, termsVersion: 1 });

    expect((await accept(1)).statusCode).toBe(200);
    const recorded = await t.db
      .selectFrom('terms_acceptances as a')
      .innerJoin('legal_documents as d', 'd.id', 'a.document_id')
      .select(['d.kind', 'd.version'])
      .where('a.user_id', '=', user.userId)
      .execute();
    expect(recorded).toEqual([{ kind: 'terms', version: 1 }]);
  });
});
