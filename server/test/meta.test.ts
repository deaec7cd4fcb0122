import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from './support/database.ts';
import { buildTestApp, type TestContext } from './support/test-app.ts';

describe(`meta calls on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('GET /api/meta answers the gtag id to anyone', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/meta' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ gtagID: '' });
  });

  it('lets an admin set the gtag id and page meta', async () => {
    const admin = await t.buildAdmin();
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/meta',
      headers: admin.headers,
      payload: { gtagId: 'GTM-ABC123' },
    });
    expect(put.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/meta' })).json()).toEqual({ gtagID: 'GTM-ABC123' });

    const page = await t.app.inject({
      method: 'PUT',
      url: '/api/meta/pages/marketplace',
      headers: admin.headers,
      payload: { title: 'Network coverage', description: 'Where our RTK corrections reach.' },
    });
    expect(page.statusCode).toBe(200);
    const got = await t.app.inject({ method: 'GET', url: '/api/meta/pages/marketplace' });
    expect(got.json()).toEqual({ title: 'Network coverage', description: 'Where our RTK corrections reach.' });
  });

  it('answers empty meta (the page keeps its own) for a page without any stored', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/meta/pages/nothing-here' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ title: '', description: '' });
  });

  it('refuses a non-admin with 403 and changes nothing', async () => {
    const before = (await t.app.inject({ method: 'GET', url: '/api/meta' })).json();
    const user = await t.buildUser();
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/meta',
      headers: user.headers,
      payload: { gtagId: 'GTM-EVIL' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'forbidden' });
    const page = await t.app.inject({
      method: 'PUT',
      url: '/api/meta/pages/dashboard',
      headers: user.headers,
      payload: { title: 'x', description: 'y' },
    });
    expect(page.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/meta' })).json()).toEqual(before);
    expect((await t.app.inject({ method: 'GET', url: '/api/meta/pages/dashboard' })).json()).toEqual({
      title: '',
      description: '',
    });
  });

  it('refuses an anonymous write with 401 before looking at the body', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/meta', payload: { nonsense: true } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'unauthenticated', message: 'User is not logged in' });
  });

  it('names the failing field of an invalid body', async () => {
    const admin = await t.buildAdmin();
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/meta/pages/dashboard',
      headers: admin.headers,
      payload: { title: '', description: 'd' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', field: 'title' });
    const badPage = await t.app.inject({
      method: 'PUT',
      url: '/api/meta/pages/Not%20A%20Page',
      headers: admin.headers,
      payload: { title: 't', description: 'd' },
    });
    expect(badPage.statusCode).toBe(404);
    expect(badPage.json()).toMatchObject({ code: 'not_found', field: 'page' });
  });
});
