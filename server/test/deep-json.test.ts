import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from './support/database.ts';
import { buildTestApp, type TestContext } from './support/test-app.ts';

const TOO_DEEP = { code: 'too_deep', message: 'The request body is nested deeper than 64 levels.' };

const nestedArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const nestedObjects = (depth: number, leaf: string) => `${'{"a":'.repeat(depth)}${leaf}${'}'.repeat(depth)}`;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

/**
 * Issue 31: a 12–16 KB anonymous body nested thousands of levels deep held the event loop (API and caster) for
 * 0.5–2 s and answered 500, the NUL guard walking it recursively. Over real sockets, so requests overlap.
 */
describe(`deeply nested JSON bodies on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let base: string;
  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  const post = (body: string) =>
    fetch(`${base}/api/demo-requests`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  const timedMeta = async () => {
    const started = performance.now();
    const res = await fetch(`${base}/api/meta`);
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    return performance.now() - started;
  };

  it('answers an anonymous body nested 10,000 to 100,000 levels deep with 400 too_deep, and stores nothing', async () => {
    for (const body of [nestedArrays(10_000), nestedArrays(100_000), nestedObjects(10_000, '"x"')]) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual(TOO_DEEP);
    }
    const rows = await t.db.selectFrom('demo_requests').select('id').execute();
    expect(rows).toEqual([]);
  });

  it('reads a body nested to the limit, naming the full path of a NUL at its bottom, and refuses one level more', async () => {
    const atLimit = await post(nestedObjects(64, '"x\\u0000"'));
    expect(atLimit.status).toBe(400);
    expect(await atLimit.json()).toMatchObject({ code: 'invalid_character', field: Array(64).fill('a').join('.') });

    const past = await post(nestedObjects(65, '"x\\u0000"'));
    expect(past.status).toBe(400);
    expect(await past.json()).toEqual(TOO_DEEP);

    // Brackets inside strings are text, not nesting.
    const quoted = await post(JSON.stringify({ firstName: '['.repeat(10_000), lastName: '{"a":'.repeat(1000) }));
    expect(quoted.status).toBe(400);
    expect(((await quoted.json()) as { code: string }).code).toBe('validation_failed');
  });

  it('keeps /api/meta and the event loop prompt while several hostile bodies are in flight', async () => {
    // Rounds of hostile bodies alternate with rounds of as many shallow bodies of the same size, so a loaded machine
    // slows both alike and the difference is what the nesting costs. The process's CPU time in a round is the work
    // its event loop could not do for anyone else (the old guard: 0.5–2 s a body); wall times on a machine shared
    // with other test runs wander by tens of milliseconds either way, so their bound is wider.
    const hostile = nestedArrays(10_000);
    const shallow = JSON.stringify({ message: 'x'.repeat(hostile.length - 14) });
    const cpu = { hostile: [] as number[], shallow: [] as number[] };
    const meta = { hostile: [] as number[], shallow: [] as number[] };
    const statuses: number[] = [];
    await timedMeta();
    for (let round = 0; round < 16; round++) {
      const kind = round % 2 === 0 ? 'shallow' : 'hostile';
      const body = kind === 'shallow' ? shallow : hostile;
      const before = process.cpuUsage();
      const [took, ...refused] = await Promise.all([timedMeta(), post(body), post(body), post(body), post(body)]);
      const used = process.cpuUsage(before);
      cpu[kind].push((used.user + used.system) / 1000);
      meta[kind].push(took);
      if (kind === 'hostile') statuses.push(...refused.map((r) => r.status));
    }

    expect(median(cpu.hostile) - median(cpu.shallow)).toBeLessThan(20);
    expect(median(meta.hostile) - median(meta.shallow)).toBeLessThan(100);
    expect(new Set(statuses)).toEqual(new Set([400]));
  });
});
