import { type ProfileConstellation, profileConstellations, type RtcmProfile } from '@portal/contract';
import { type Selectable, sql } from 'kysely';
import type { Database } from '../../db/client.ts';
import type { DB } from '../../db/schema.ts';
import { createCatalogueRepo } from '../catalogue/catalogue.repo.ts';
import { createNtripSessionsRepo, type SessionRow } from '../ntrip/ntrip-sessions.repo.ts';
import { activeOrganizationIdsOf, createOrganizationsRepo } from '../organizations/organizations.repo.ts';
import { createUsersRepo, userEmailOf } from '../users/users.repo.ts';

/**
 * SQL of the NTRIP accounts module on its tables (ntrip_accounts, access_grants; migration 202611231400_ntrip.sql).
 * Plain SQL on the documented columns (docs/data-model.md). What it needs of users, organisations, the catalogue
 * and the session log it asks of their repos, in the caller's transaction, so a lock or a count stays inside the
 * transaction that spends it. Every method takes an optional transaction.
 */

type Account = Selectable<DB['ntrip_accounts']>;
type Grant = Selectable<DB['access_grants']>;
type Network = Selectable<DB['networks']>;

/** An account as read here (ACCOUNT_COLUMNS); for an organisation's account owner_user_id is the member using it. */
export type AccountRow = Pick<
  Account,
  | 'id'
  | 'owner_user_id'
  | 'organization_id'
  | 'username'
  | 'label'
  | 'enabled'
  | 'max_connections'
  | 'rtcm_profile'
  | 'constellations'
  | 'created_at'
  | 'updated_at'
>;

/** What an update may change; absent fields stay as they are. */
export interface AccountChanges {
  label?: string;
  enabled?: boolean;
  passwordHash?: string;
  maxConnections?: number;
  rtcmProfile?: RtcmProfile;
  constellations?: ProfileConstellation[] | null;
}

export type AdminAccountRow = AccountRow & {
  /** Joined: the owner's email, null once the owner is erased. */
  owner_email: string | null;
};

export type GrantRow = Pick<Grant, 'id' | 'account_id' | 'network_id' | 'valid_from' | 'valid_until' | 'source'> & {
  /** The account of those asked about that this grant covers (a grant for all accounts comes once per account). */
  for_account_id: string;
  network_slug: Network['slug'];
  network_name: Network['name'];
};

export type NetworkRow = Pick<Network, 'id' | 'slug' | 'name' | 'status' | 'token_price_per_day'>;

export type StationRow = Pick<
  Selectable<DB['stations']>,
  'network_id' | 'mountpoint' | 'identifier' | 'status' | 'latitude' | 'longitude'
>;

const OWNER_EMAIL = userEmailOf(sql.ref('a.owner_user_id'));

const ACCOUNT_COLUMNS = sql`a.id::text AS id, a.owner_user_id::text AS owner_user_id,
  a.organization_id::text AS organization_id, a.username, a.label, a.enabled, a.max_connections, a.rtcm_profile,
  a.constellations, a.created_at, a.updated_at`;

/**
 * The grants that cover account `a` (docs/adr/0010, 0026): its own; for a personal account its owner's grants for
 * all their accounts and those of the organisations the owner is a member of; for an organisation's account that
 * organisation's grants for all accounts. The caster's query (ntrip.repo.ts) says the same.
 */
const COVERS = sql`(g.account_id = a.id
  OR (a.organization_id IS NULL AND g.account_id IS NULL AND g.organization_id IS NULL
    AND g.owner_user_id = a.owner_user_id)
  OR (a.organization_id IS NULL AND g.account_id IS NULL AND g.organization_id IN (
    ${activeOrganizationIdsOf(sql.ref('a.owner_user_id'))}))
  OR (a.organization_id IS NOT NULL AND g.account_id IS NULL AND g.organization_id = a.organization_id))`;

/** What one subscription gives, as billing knows it (docs/adr/0005-billing.md, Grants). */
export interface SubscriptionGrantState {
  subscriptionId: string;
  userId: string;
  /** An organisation's subscription covers every member's accounts instead of the buyer's. */
  organizationId: string | null;
  networkIds: string[];
  /** Entitled: grants open until `validUntil`. Not entitled: every open grant of the subscription ends now. */
  entitled: boolean;
  validUntil: Date;
}

export type NtripAccountsRepo = ReturnType<typeof createNtripAccountsRepo>;

export function createNtripAccountsRepo(db: Database) {
  return {
    transaction<T>(work: (trx: Database) => Promise<T>): Promise<T> {
      return db.transaction().execute(work);
    },

    async listByOwner(ownerUserId: string, trx: Database = db): Promise<AccountRow[]> {
      const r = await sql<AccountRow>`
        SELECT ${ACCOUNT_COLUMNS} FROM ntrip_accounts a
        WHERE a.owner_user_id = ${ownerUserId} AND a.organization_id IS NULL AND a.deleted_at IS NULL
        ORDER BY a.created_at, a.id`.execute(trx);
      return r.rows;
    },

    async listByOrganization(orgId: string, trx: Database = db): Promise<(AccountRow & { holder_email: string })[]> {
      const r = await sql<AccountRow & { holder_email: string }>`
        SELECT ${ACCOUNT_COLUMNS}, ${OWNER_EMAIL} AS holder_email FROM ntrip_accounts a
        WHERE a.organization_id = ${orgId} AND a.deleted_at IS NULL
        ORDER BY a.created_at, a.id`.execute(trx);
      return r.rows;
    },

    async countByOrganization(orgId: string, trx: Database = db): Promise<number> {
      const r = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM ntrip_accounts WHERE organization_id = ${orgId} AND deleted_at IS NULL`.execute(
        trx,
      );
      return Number(r.rows[0]?.n ?? 0);
    },

    /**
     * The caller's role in an organisation, with its name. `lock` takes the organisation's row lock first, as every
     * membership change does, so a demotion or removal is wholly before or after the caller's change.
     */
    async organizationRole(
      orgId: string,
      userId: string,
      trx: Database = db,
      lock = false,
    ): Promise<{ name: string; disabled: boolean; role: 'owner' | 'admin' | 'member' | null } | undefined> {
      return createOrganizationsRepo(trx).membership(orgId, userId, lock);
    },

    async userEmail(userId: string, trx: Database = db): Promise<string | null> {
      return createUsersRepo(trx).emailOf(userId);
    },

    /**
     * Holds the user's row until the transaction ends: one owner's creations count one after the other; false
     * when there is no such user.
     */
    async lockUser(userId: string, trx: Database): Promise<boolean> {
      return createUsersRepo(trx).lockUser(userId);
    },

    async countByOwner(ownerUserId: string, trx: Database = db): Promise<number> {
      const r = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM ntrip_accounts
        WHERE owner_user_id = ${ownerUserId} AND organization_id IS NULL AND deleted_at IS NULL`.execute(trx);
      return Number(r.rows[0]?.n ?? 0);
    },

    /** A live (not deleted) account; `lock` takes its row lock until the transaction ends. */
    async find(id: string, trx: Database = db, lock = false): Promise<AccountRow | undefined> {
      const r = await sql<AccountRow>`
        SELECT ${ACCOUNT_COLUMNS} FROM ntrip_accounts a
        WHERE a.id = ${id} AND a.deleted_at IS NULL ${lock ? sql`FOR UPDATE` : sql``}`.execute(trx);
      return r.rows[0];
    },

    async usernameExists(username: string, trx: Database = db): Promise<boolean> {
      const r = await sql`SELECT 1 FROM ntrip_accounts WHERE lower(username) = lower(${username})`.execute(trx);
      return r.rows.length > 0;
    },

    /**
     * Undefined when the username is taken: a unique violation would abort the caller's transaction, so a taken
     * name is answered by ON CONFLICT and the caller tries another.
     */
    async insert(
      values: {
        ownerUserId: string;
        organizationId: string | null;
        username: string;
        passwordHash: string;
        label: string;
        maxConnections: number;
      },
      trx: Database = db,
    ): Promise<AccountRow | undefined> {
      const r = await sql<AccountRow>`
        INSERT INTO ntrip_accounts AS a (owner_user_id, organization_id, username, password_hash, label, enabled,
          max_connections)
        VALUES (${values.ownerUserId}, ${values.organizationId}, ${values.username}, ${values.passwordHash},
          ${values.label}, true, ${values.maxConnections})
        ON CONFLICT DO NOTHING
        RETURNING ${ACCOUNT_COLUMNS}`.execute(trx);
      return r.rows[0];
    },

    async update(id: string, changes: AccountChanges, now: Date, trx: Database = db): Promise<AccountRow | undefined> {
      const sets = [sql`updated_at = ${now}`];
      if (changes.label !== undefined) sets.push(sql`label = ${changes.label}`);
      if (changes.enabled !== undefined) sets.push(sql`enabled = ${changes.enabled}`);
      if (changes.passwordHash !== undefined) sets.push(sql`password_hash = ${changes.passwordHash}`);
      if (changes.maxConnections !== undefined) sets.push(sql`max_connections = ${changes.maxConnections}`);
      if (changes.rtcmProfile !== undefined) sets.push(sql`rtcm_profile = ${changes.rtcmProfile}`);
      if (changes.constellations !== undefined) {
        // Stored in the contract's order, so the answer does not depend on the order they were ticked in.
        const ordered =
          changes.constellations && profileConstellations.filter((c) => changes.constellations?.includes(c));
        sets.push(sql`constellations = ${ordered === null ? null : sql`${ordered}::text[]`}`);
      }
      const r = await sql<AccountRow>`
        UPDATE ntrip_accounts AS a SET ${sql.join(sets)}
        WHERE a.id = ${id} AND a.deleted_at IS NULL
        RETURNING ${ACCOUNT_COLUMNS}`.execute(trx);
      return r.rows[0];
    },

    async softDelete(id: string, now: Date, trx: Database = db): Promise<boolean> {
      const r = await sql`
        UPDATE ntrip_accounts SET deleted_at = ${now}, enabled = false, updated_at = ${now}
        WHERE id = ${id} AND deleted_at IS NULL`.execute(trx);
      return Number(r.numAffectedRows ?? 0) > 0;
    },

    /**
     * Account deletion: every account the user holds (their own and the organisations' they use) is soft-deleted,
     * so its username is never reused, and their personal grants end. An organisation's grants stay: the
     * organisation keeps what this member once bought for it.
     */
    async deleteAllOfOwner(userId: string, now: Date, trx: Database = db): Promise<void> {
      await sql`
        UPDATE ntrip_accounts SET enabled = false, deleted_at = ${now}, updated_at = ${now}
        WHERE owner_user_id = ${userId} AND deleted_at IS NULL`.execute(trx);
      await sql`
        UPDATE access_grants SET ended_at = ${now}
        WHERE owner_user_id = ${userId} AND organization_id IS NULL AND ended_at IS NULL`.execute(trx);
    },

    /**
     * Deleting an organisation: its NTRIP accounts are soft-deleted and their grants end, and so do its grants for
     * all accounts (otherwise they would fall back to their buyer as personal ones). Answers the accounts, for the
     * caster to drop.
     */
    async deleteAllOfOrganization(
      orgId: string,
      now: Date,
      trx: Database = db,
    ): Promise<{ id: string; owner_user_id: string }[]> {
      const r = await sql<{ id: string; owner_user_id: string }>`
        UPDATE ntrip_accounts SET deleted_at = ${now}, enabled = false, updated_at = ${now}
        WHERE organization_id = ${orgId} AND deleted_at IS NULL
        RETURNING id::text AS id, owner_user_id::text AS owner_user_id`.execute(trx);
      await sql`
        UPDATE access_grants SET ended_at = ${now}
        WHERE ended_at IS NULL AND (organization_id = ${orgId}
          OR account_id = ANY(${r.rows.map((a) => a.id)}::uuid[]))`.execute(trx);
      return r.rows;
    },

    /** Ends every open grant of this one account (grants of all the owner's accounts stay). */
    async endGrantsOfAccount(accountId: string, now: Date, trx: Database = db): Promise<number> {
      const r = await sql`
        UPDATE access_grants SET ended_at = ${now}
        WHERE account_id = ${accountId} AND ended_at IS NULL`.execute(trx);
      return Number(r.numAffectedRows ?? 0);
    },

    /** Grants not ended and not yet expired that cover these accounts, once per account they cover. */
    async openGrants(accounts: AccountRow[], now: Date, trx: Database = db): Promise<GrantRow[]> {
      if (accounts.length === 0) return [];
      const ids = accounts.map((a) => a.id);
      const r = await sql<Omit<GrantRow, 'network_slug' | 'network_name'>>`
        SELECT g.id::text AS id, g.account_id::text AS account_id, a.id::text AS for_account_id,
          g.network_id::text AS network_id, g.valid_from, g.valid_until, g.source
        FROM ntrip_accounts a
        JOIN access_grants g ON g.ended_at IS NULL AND g.valid_until > ${now} AND ${COVERS}
        WHERE a.id::text = ANY(${ids}::text[])
        ORDER BY g.valid_until, g.id`.execute(trx);
      const networks = new Map(
        (await createCatalogueRepo(trx).networksByIds([...new Set(r.rows.map((g) => g.network_id))])).map((n) => [
          n.id,
          n,
        ]),
      );
      // A grant's network_id references its network, so every grant finds one.
      return r.rows.flatMap((g) => {
        const n = networks.get(g.network_id);
        return n ? [{ ...g, network_slug: n.slug, network_name: n.name }] : [];
      });
    },

    /**
     * End of this account's own access to this network (token activations and support grants), if it ends after
     * `now`. Grants of all the owner's accounts (subscriptions) are left out: they renew, and days stacked behind
     * them would wait for an end that may not come.
     */
    async activationEnd(accountId: string, networkId: string, now: Date, trx: Database = db): Promise<Date | null> {
      const r = await sql<{ until: Date | null }>`
        SELECT max(valid_until) AS until FROM access_grants
        WHERE account_id = ${accountId} AND network_id = ${networkId} AND source IN ('tokens', 'manual')
          AND ended_at IS NULL AND valid_until > ${now}`.execute(trx);
      const until = r.rows[0]?.until;
      return until ? new Date(until) : null;
    },

    async insertGrant(
      values: {
        id: string;
        accountId: string;
        ownerUserId: string;
        organizationId: string | null;
        networkId: string;
        validFrom: Date;
        validUntil: Date;
        source: 'tokens' | 'manual';
        referenceId: string;
      },
      trx: Database = db,
    ): Promise<void> {
      await sql`
        INSERT INTO access_grants (id, account_id, owner_user_id, organization_id, network_id, valid_from, valid_until,
          source, reference_id)
        VALUES (${values.id}, ${values.accountId}, ${values.ownerUserId}, ${values.organizationId}, ${values.networkId},
          ${values.validFrom}, ${values.validUntil}, ${values.source}, ${values.referenceId})`.execute(trx);
    },

    /**
     * Moves the open grants of one subscription to the state it gives, in the billing transaction that changed it:
     * grants for all the buyer's accounts (or the organisation's), one per network, open until `validUntil`; those
     * of networks it no longer gives, or all of them when it is not entitled, end now. Idempotent.
     */
    async syncSubscriptionGrants(state: SubscriptionGrantState, now: Date, trx: Database = db): Promise<void> {
      const ref = state.subscriptionId;
      const networks = state.entitled ? state.networkIds : [];
      await sql`
        UPDATE access_grants SET ended_at = ${now}
        WHERE source = 'subscription' AND reference_id::text = ${ref} AND ended_at IS NULL
          AND NOT (network_id::text = ANY(${sql.val(networks)}::text[]))`.execute(trx);
      for (const networkId of networks) {
        const updated = await sql`
          UPDATE access_grants SET valid_until = ${state.validUntil}
          WHERE source = 'subscription' AND reference_id::text = ${ref} AND ended_at IS NULL
            AND network_id::text = ${networkId}`.execute(trx);
        if (Number(updated.numAffectedRows ?? 0) === 0) {
          await sql`
            INSERT INTO access_grants
              (account_id, owner_user_id, organization_id, network_id, valid_from, valid_until, source, reference_id)
            VALUES (NULL, ${state.userId}, ${state.organizationId}, ${networkId}, ${now}, ${state.validUntil},
              'subscription', ${ref})`.execute(trx);
        }
      }
    },

    async network(id: string, trx: Database = db): Promise<NetworkRow | undefined> {
      const [network] = await createCatalogueRepo(trx).networksByIds([id]);
      return network;
    },

    async stationsOf(networkIds: string[], trx: Database = db): Promise<StationRow[]> {
      return createCatalogueRepo(trx).stationsOfNetworks(networkIds);
    },

    async lastSeen(accountIds: string[], trx: Database = db): Promise<Map<string, Date>> {
      return createNtripSessionsRepo(trx).lastSeen(accountIds);
    },

    async sessions(accountId: string, limit: number, offset: number, trx: Database = db): Promise<SessionRow[]> {
      return createNtripSessionsRepo(trx).sessions(accountId, limit, offset);
    },

    async countSessions(accountId: string, trx: Database = db): Promise<number> {
      return createNtripSessionsRepo(trx).countSessions(accountId);
    },

    async adminSearch(
      search: string | undefined,
      limit: number,
      offset: number,
      trx: Database = db,
    ): Promise<{ rows: AdminAccountRow[]; total: number }> {
      const pattern = search ? `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
      const where = pattern
        ? sql`a.deleted_at IS NULL AND (a.username ILIKE ${pattern} OR a.label ILIKE ${pattern}
            OR ${OWNER_EMAIL} ILIKE ${pattern} OR a.id::text = ${search})`
        : sql`a.deleted_at IS NULL`;
      const rows = await sql<AdminAccountRow>`
        SELECT ${ACCOUNT_COLUMNS}, ${OWNER_EMAIL} AS owner_email
        FROM ntrip_accounts a
        WHERE ${where} ORDER BY a.created_at DESC, a.id LIMIT ${limit} OFFSET ${offset}`.execute(trx);
      const total = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM ntrip_accounts a WHERE ${where}`.execute(trx);
      return { rows: rows.rows, total: Number(total.rows[0]?.n ?? 0) };
    },

    async findWithOwner(id: string, trx: Database = db): Promise<AdminAccountRow | undefined> {
      const r = await sql<AdminAccountRow>`
        SELECT ${ACCOUNT_COLUMNS}, ${OWNER_EMAIL} AS owner_email
        FROM ntrip_accounts a
        WHERE a.id = ${id} AND a.deleted_at IS NULL`.execute(trx);
      return r.rows[0];
    },
  };
}
