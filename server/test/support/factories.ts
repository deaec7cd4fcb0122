import { randomBytes, randomUUID } from 'node:crypto';
import type { Database } from '../../src/db/client.ts';
import type { TestContext, TestUser } from './test-app.ts';

/**
 * The entities server tests start from, made the way the portal makes them: through the API where a user or an
 * admin would, in the database only where the API has no call for it (networks and stations come from the
 * catalogue's import or the admin, a test needs them in one line). Users and admins come from buildTestApp.
 */

/** A network with a fresh slug; its price per day and status as given. */
export async function createNetwork(
  db: Database,
  options: { name?: string; price?: number; status?: 'active' | 'maintenance' | 'retired' } = {},
) {
  const slug = `net-${randomBytes(4).toString('hex')}`;
  return db
    .insertInto('networks')
    .values({
      slug,
      name: options.name ?? `Network ${slug}`,
      token_price_per_day: options.price ?? 10,
      status: options.status ?? 'active',
    })
    .returning(['id', 'slug'])
    .executeTakeFirstOrThrow();
}

/** An online station of the network at `mountpoint`, in the Netherlands. */
export async function createStation(db: Database, networkId: string, mountpoint: string) {
  await db
    .insertInto('stations')
    .values({
      network_id: networkId,
      mountpoint,
      identifier: `${mountpoint} place`,
      country: 'NLD',
      latitude: 52,
      longitude: 5,
      updated_at: new Date(),
      status: 'online',
    })
    .execute();
}

/** Tokens an admin grants the user (PUT /api/admin/tokens). */
export async function grantTokens(t: TestContext, admin: TestUser, user: TestUser, tokenAmount: number) {
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/admin/tokens',
    headers: admin.headers,
    payload: { userId: user.userId, tokenAmount, reason: 'Test grant' },
  });
  if (res.statusCode !== 200) throw new Error(`tokens not granted: ${res.statusCode} ${res.body}`);
}

/** The user's token balance as the dashboard reads it. */
export async function balanceOf(t: TestContext, user: TestUser): Promise<number> {
  const res = await t.app.inject({ method: 'GET', url: '/api/subscriptions', headers: user.headers });
  return (res.json() as { tokenAmount: number }).tokenAmount;
}

/** An NTRIP account of the user, with the password the portal showed once. */
export async function createAccount(t: TestContext, user: TestUser, label = 'Rover 1') {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/ntrip-accounts',
    headers: user.headers,
    payload: { label },
  });
  if (res.statusCode !== 201) throw new Error(`account not created: ${res.statusCode} ${res.body}`);
  return res.json() as { account: { id: string; username: string }; password: string };
}

/** Activates the account on the network for `days`, paid in tokens; the answer as the client gets it. */
export function activate(t: TestContext, user: TestUser, accountId: string, feedNetworkId: string, days = 1) {
  return t.app.inject({
    method: 'POST',
    url: '/api/tokens',
    headers: user.headers,
    payload: { accountId, feedNetworkId, days },
  });
}

/** A product the admin creates (POST /api/admin/products), with its price id. */
export async function createProduct(t: TestContext, admin: TestUser, body: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'POST', url: '/api/admin/products', headers: admin.headers, payload: body });
  if (res.statusCode !== 201) throw new Error(`product not created: ${res.statusCode} ${res.body}`);
  return res.json() as { id: string; priceId: string };
}

/**
 * An organisation the owner creates (POST /api/organization), with `members` joined by the invite link the owner
 * sends them (test users' e-mails are unverified, so they join with the link, as a colleague handed it would).
 */
export async function createOrganization(
  t: TestContext,
  owner: TestUser,
  name = `Crew ${randomUUID().slice(0, 8)}`,
  members: TestUser[] = [],
): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/organization',
    headers: owner.headers,
    payload: { name },
  });
  if (res.statusCode !== 201) throw new Error(`organisation not created: ${res.statusCode} ${res.body}`);
  const orgId = new URL(res.json().value, 'http://x').searchParams.get('org') ?? '';
  for (const member of members) {
    const sent = await t.app.inject({
      method: 'POST',
      url: `/api/org/${orgId}/invites`,
      headers: owner.headers,
      payload: { email: member.email },
    });
    if (sent.statusCode !== 201) throw new Error(`invite not sent: ${sent.statusCode} ${sent.body}`);
    const token = new URL(sent.json().link).searchParams.get('token');
    const joined = await t.app.inject({
      method: 'POST',
      url: '/api/invites/accept',
      headers: member.headers,
      payload: { token },
    });
    if (joined.statusCode !== 200) throw new Error(`invite not accepted: ${joined.statusCode} ${joined.body}`);
  }
  return orgId;
}
