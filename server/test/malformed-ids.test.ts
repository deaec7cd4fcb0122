import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from './support/database.ts';
import { buildTestApp, type TestContext, type TestUser } from './support/test-app.ts';

interface Route {
  method: string;
  path: string;
}

/**
 * Every route the app registered, read from Fastify's own route tree, so a route added later is walked without
 * anyone listing it here. `printRoutes({ commonPrefix: false })` draws one node a line, each indented four
 * characters a level under its parent and naming the part of the path it adds.
 */
function registeredRoutes(app: FastifyInstance): Route[] {
  const routes: Route[] = [];
  const pathAt: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const node = /^((?:[│ ] {3})*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!node) continue;
    const depth = (node[1] ?? '').length / 4;
    const path = (depth > 0 ? (pathAt[depth - 1] ?? '') : '') + (node[2] ?? '');
    pathAt.length = depth;
    pathAt.push(path);
    for (const method of node[3]?.split(', ') ?? []) routes.push({ method, path });
  }
  return routes;
}

const paramNames = (path: string) => [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] as string);

/**
 * Path parameter values no record can have, as they go into the URL: a path climbing out of its folder, a string
 * longer than the router keeps, a percent sign that decodes to nothing; and for ids (`id`, `…Id`) also a word and a
 * UUID with a digit too many. A name (a page, a document kind, a network slug) may well be a word.
 */
const MALFORMED_ANY = ['..%2Fx', 'x'.repeat(300), '%E0%A4%A'];
const MALFORMED_ID = [...MALFORMED_ANY, 'abc', '0e3f4c4e-3b7a-4f0e-9b8e-2f6c3f7f1a2b0'];
const isId = (param: string) => param === 'id' || param.endsWith('Id');
/** For the other parameters of a route with two: well formed, so only the one under test is wrong. */
const WELL_FORMED = '0e3f4c4e-3b7a-4f0e-9b8e-2f6c3f7f1a2b';

/** ADR 0010, extended to every route (docs/architecture.md): a path that names no record answers 404 not_found. */
describe(`malformed ids in the path on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let admin: TestUser;
  let routes: Route[];
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.buildUser({ emailVerified: true });
    await t.db.updateTable('users').set({ is_admin: true }).where('id', '=', admin.userId).execute();
    routes = registeredRoutes(t.app).filter((r) => r.method !== 'HEAD' && paramNames(r.path).length > 0);
  });
  afterAll(() => t.close());

  it('reads the routes of every module from the app', () => {
    const paths = new Set(routes.map((r) => `${r.method} ${r.path}`));
    for (const known of [
      'GET /api/org/:orgId',
      'DELETE /api/org/:orgId/subscriptions',
      'GET /api/ntrip-accounts/:id/sessions.csv',
      'PATCH /api/admin/users/:userId',
      'GET /api/rinex/jobs/:id/download',
      'POST /api/admin/payments/:paymentId/refund',
      'GET /api/stations/:id',
    ]) {
      expect(paths).toContain(known);
    }
    expect(routes.length).toBeGreaterThan(60);
  });

  it('answers 404 not_found to a malformed value of every path parameter of every route', async () => {
    const wrong: string[] = [];
    for (const route of routes) {
      for (const param of paramNames(route.path)) {
        for (const value of isId(param) ? MALFORMED_ID : MALFORMED_ANY) {
          const url = paramNames(route.path).reduce(
            (path, name) => path.replace(new RegExp(`:${name}(?=[/.]|$)`), name === param ? value : WELL_FORMED),
            route.path,
          );
          const withBody = route.method !== 'GET' && route.method !== 'DELETE';
          const res = await t.app.inject({
            method: route.method as 'GET',
            url,
            headers: { ...admin.headers, ...(withBody && { 'content-type': 'application/json' }) },
            ...(withBody && { payload: '{}' }),
          });
          const code = String(res.headers['content-type']).includes('json') ? res.json().code : undefined;
          if (res.statusCode !== 404 || code !== 'not_found') {
            wrong.push(`${route.method} ${url.slice(0, 120)}: ${res.statusCode} ${code ?? res.body.slice(0, 60)}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
