import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_TOLERANCE_SECONDS } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../../caster/test/support/wait.ts';

import { testDatabaseKind } from '../support/database.ts';
import { activate, createAccount, createNetwork, grantTokens } from '../support/factories.ts';
import { buildTestApp, type TestContext, type TestUser } from '../support/test-app.ts';

/** The verification docs/webhooks.md documents, as a receiver would write it. */
function verify(secret: string, header: string, body: string, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > WEBHOOK_TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

interface Received {
  event: string;
  signature: string;
  body: string;
}

/** A receiver on loopback that can be down (answers 503) or up. */
async function receiver() {
  const received: Received[] = [];
  let up = false;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (!up) {
        res.writeHead(503).end('down for maintenance');
        return;
      }
      received.push({
        event: String(req.headers['portal-event']),
        signature: String(req.headers['portal-signature']),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    setUp: (value: boolean) => {
      up = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe(`webhooks (issue 37) on ${testDatabaseKind()}`, { timeout: 60_000 }, () => {
  let t: TestContext;
  let hook: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    hook = await receiver();
    t = await buildTestApp({
      webhooks: { allowPrivateAddresses: true, pollMs: 50, backoffMs: 200, timeoutMs: 2_000 },
    });
  });
  afterAll(async () => {
    await t.close();
    await hook.close();
  });

  async function addWebhook(user: TestUser, url = hook.url) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers: user.headers,
      payload: { url, events: ['balance.low', 'payment.succeeded'] },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; secret: string };
  }

  it('signs each delivery; retries while the receiver is down and delivers once it is up; a replay is detectable', async () => {
    hook.setUp(false);
    const admin = await t.buildAdmin();
    const user = await t.buildUser();
    const { id, secret } = await addWebhook(user);
    await t.app.inject({
      method: 'PUT',
      url: '/api/user/notifications',
      headers: user.headers,
      payload: { lowBalanceThreshold: 50 },
    });
    const network = await createNetwork(t.db, { price: 10 });
    await grantTokens(t, admin, user, 60);
    const { account } = await createAccount(t, user);
    expect((await activate(t, user, account.id, network.id, 2)).statusCode).toBe(201);
    const test = await t.app.inject({ method: 'POST', url: `/api/webhooks/${id}/test`, headers: user.headers });
    expect(test.statusCode).toBe(201);

    // Down: attempts are made and logged with the receiver's answer, and retried.
    const log = async () =>
      (await t.app.inject({ method: 'GET', url: `/api/webhooks/${id}/deliveries`, headers: user.headers })).json()
        .items as {
        id: string;
        event: string;
        status: string;
        attempts: number;
        lastStatusCode: number | null;
        lastResponse: string | null;
      }[];
    await until(
      async () => (await log()).some((d) => d.attempts >= 2),
      'a second attempt of the deliveries',
      15_000,
      50,
    );
    const failing = await log();
    expect(failing.every((d) => d.status === 'pending')).toBe(true);
    expect(failing[0]).toMatchObject({ lastStatusCode: 503, lastResponse: 'down for maintenance' });
    expect(hook.received).toEqual([]);

    hook.setUp(true);
    await until(() => hook.received.length >= 2, 'two deliveries at the receiver', 15_000, 50);
    await until(
      async () => (await log()).every((d) => d.status === 'succeeded'),
      'every delivery to succeed',
      15_000,
      50,
    );
    expect(hook.received.map((r) => r.event).sort()).toEqual(['balance.low', 'webhook.test']);
    for (const r of hook.received) {
      expect(verify(secret, r.signature, r.body)).toBe(true);
      // Another secret or a changed body does not verify.
      expect(verify(`${secret}x`, r.signature, r.body)).toBe(false);
      expect(verify(secret, r.signature, `${r.body} `)).toBe(false);
      // Replayed later: the signed timestamp is too old.
      expect(verify(secret, r.signature, r.body, Math.floor(Date.now() / 1000) + WEBHOOK_TOLERANCE_SECONDS + 1)).toBe(
        false,
      );
    }
    const low = JSON.parse(hook.received.find((r) => r.event === 'balance.low')?.body ?? '{}');
    expect(low).toMatchObject({ event: 'balance.low', data: { balance: 40, threshold: 50 } });

    // Resend from the log; a rolled secret signs what is sent from then on.
    const rolled = await t.app.inject({ method: 'POST', url: `/api/webhooks/${id}/secret`, headers: user.headers });
    const newSecret = rolled.json().secret as string;
    expect(newSecret).not.toBe(secret);
    const first = (await log()).find((d) => d.event === 'balance.low');
    const resend = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/${id}/deliveries/${first?.id}/resend`,
      headers: user.headers,
    });
    expect(resend.statusCode).toBe(201);
    await until(() => hook.received.length >= 3, 'the third delivery at the receiver', 15_000, 50);
    const again = hook.received[2] as Received;
    expect(again.body).toBe(hook.received.find((r) => r.event === 'balance.low')?.body);
    expect(verify(newSecret, again.signature, again.body)).toBe(true);
    expect(verify(secret, again.signature, again.body)).toBe(false);
  });
});

describe(`webhook addresses without the loopback setting on ${testDatabaseKind()}`, { timeout: 60_000 }, () => {
  let t: TestContext;
  let hook: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    hook = await receiver();
    hook.setUp(true);
    t = await buildTestApp({ webhooks: { pollMs: 50, backoffMs: 60_000 } });
  });
  afterAll(async () => {
    await t.close();
    await hook.close();
  });

  it('never delivers to loopback or private addresses (SSRF)', async () => {
    const user = await t.buildUser();
    for (const url of [hook.url, hook.url.replace('127.0.0.1', 'localhost')]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/webhooks',
        headers: user.headers,
        payload: { url, events: ['balance.low'] },
      });
      const { id } = res.json() as { id: string };
      await t.app.inject({ method: 'POST', url: `/api/webhooks/${id}/test`, headers: user.headers });
      await until(
        async () => {
          const items = (
            await t.app.inject({ method: 'GET', url: `/api/webhooks/${id}/deliveries`, headers: user.headers })
          ).json().items as { attempts: number; lastResponse: string | null }[];
          return items[0]?.attempts === 1 && items[0].lastResponse === 'refused: the address is not public';
        },
        'the refused delivery',
        15_000,
        50,
      );
    }
    expect(hook.received).toEqual([]);
  });
});
