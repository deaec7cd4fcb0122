import { type ProfileConstellation, profileConstellations, type RtcmProfile } from '@portal/contract';
import { type Selectable, sql, type UpdateObject } from 'kysely';
import type { Database } from '../../db/client.ts';
import type { DB } from '../../db/schema.ts';
import { createCatalogueRepo } from '../catalogue/index.ts';
import { createNtripSessionsRepo, type SessionRow } from '../ntrip/index.ts';
import { activeOrganizationIdsOf, createOrganizationsRepo } from '../organizations/index.ts';
import { createUsersRepo, userEmailOf } from '../users/index.ts';

/**
 * Queries of the NTRIP accounts module on its tables (ntrip_accounts, access_grants; migration
 * 202611231400_ntrip.sql), typed by db/schema.ts; only the rule of which grants cover an account is a SQL fragment.
 * What it needs of users, organisations, the catalogue and the session log it asks of their repos, in the caller's
 * transaction, so a lock or a count stays inside the transaction that spends it. Every method takes an optional
 * transaction.
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

const ACCOUNT_COLUMNS = [
  'id',
  'owner_user_id',
  'organization_id',
  'username',
  'label',
  'enabled',
  'max_connections',
  'rtcm_profile',
  'constellations',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof AccountRow)[];

/**
 * The grants that cover account `a` (docs/adr/0010, 0026): its own; for a personal account its owner's grants for
 * all their accounts and those of the organisations the owner is a member of; for an organisation's account that
 * organisation's grants for all accounts. The caster's query (ntrip.repo.ts) says the same.
 */
const COVERS = sql<boolean>`(g.account_id = a.id
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
      return trx
        .selectFrom('ntrip_accounts')
        .select(ACCOUNT_COLUMNS)
        .where('owner_user_id', '=', ownerUserId)
        .where('organization_id', 'is', null)
        .where('deleted_at', 'is', null)
        .orderBy(['created_at', 'id'])
        .execute();
    },

    /** With the email of the member holding each account, null once that user is erased. */
    async listByOrganization(
      orgId: string,
      trx: Database = db,
    ): Promise<(AccountRow & { holder_email: string | null })[]> {
      return trx
        .selectFrom('ntrip_accounts as a')
        .select(ACCOUNT_COLUMNS)
        .select(OWNER_EMAIL.as('holder_email'))
        .where('organization_id', '=', orgId)
        .where('deleted_at', 'is', null)
        .orderBy(['created_at', 'id'])
        .execute();
    },

    async countByOrganization(orgId: string, trx: Database = db): Promise<number> {
      const r = await trx
        .selectFrom('ntrip_accounts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('organization_id', '=', orgId)
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(r.n);
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
      const r = await trx
        .selectFrom('ntrip_accounts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('owner_user_id', '=', ownerUserId)
        .where('organization_id', 'is', null)
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },

    /** A live (not deleted) account; `lock` takes its row lock until the transaction ends. */
    async find(id: string, trx: Database = db, lock = false): Promise<AccountRow | undefined> {
      return trx
        .selectFrom('ntrip_accounts')
        .select(ACCOUNT_COLUMNS)
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .$if(lock, (q) => q.forUpdate())
        .executeTakeFirst();
    },

    async usernameExists(username: string, trx: Database = db): Promise<boolean> {
      const r = await trx
        .selectFrom('ntrip_accounts')
        .select(sql<number>`1`.as('taken'))
        .where((eb) => eb(eb.fn('lower', ['username']), '=', eb.fn('lower', [eb.val(username)])))
        .executeTakeFirst();
      return r !== undefined;
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
      return trx
        .insertInto('ntrip_accounts')
        .values({
          owner_user_id: values.ownerUserId,
          organization_id: values.organizationId,
          username: values.username,
          password_hash: values.passwordHash,
          label: values.label,
          enabled: true,
          max_connections: values.maxConnections,
        })
        .onConflict((oc) => oc.doNothing())
        .returning(ACCOUNT_COLUMNS)
        .executeTakeFirst();
    },

    async update(id: string, changes: AccountChanges, now: Date, trx: Database = db): Promise<AccountRow | undefined> {
      const set: UpdateObject<DB, 'ntrip_accounts'> = {
        updated_at: now,
        label: changes.label,
        enabled: changes.enabled,
        password_hash: changes.passwordHash,
        max_connections: changes.maxConnections,
        rtcm_profile: changes.rtcmProfile,
      };
      if (changes.constellations !== undefined) {
        // Stored in the contract's order, so the answer does not depend on the order they were ticked in.
        const ordered =
          changes.constellations && profileConstellations.filter((c) => changes.constellations?.includes(c));
        set.constellations = ordered === null ? null : sql<ProfileConstellation[]>`${ordered}::text[]`;
      }
      return trx
        .updateTable('ntrip_accounts')
        .set(set)
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .returning(ACCOUNT_COLUMNS)
        .executeTakeFirst();
    },

    async softDelete(id: string, now: Date, trx: Database = db): Promise<boolean> {
      const r = await trx
        .updateTable('ntrip_accounts')
        .set({ deleted_at: now, enabled: false, updated_at: now })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    /**
     * Account deletion: every account the user holds (their own and the organisations' they use) is soft-deleted,
     * so its username is never reused, and their personal grants end. An organisation's grants stay: the
     * organisation keeps what this member once bought for it.
     */
    async deleteAllOfOwner(userId: string, now: Date, trx: Database = db): Promise<void> {
      await trx
        .updateTable('ntrip_accounts')
        .set({ enabled: false, deleted_at: now, updated_at: now })
        .where('owner_user_id', '=', userId)
        .where('deleted_at', 'is', null)
        .execute();
      await trx
        .updateTable('access_grants')
        .set({ ended_at: now })
        .where('owner_user_id', '=', userId)
        .where('organization_id', 'is', null)
        .where('ended_at', 'is', null)
        .execute();
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
      const accounts = await trx
        .updateTable('ntrip_accounts')
        .set({ deleted_at: now, enabled: false, updated_at: now })
        .where('organization_id', '=', orgId)
        .where('deleted_at', 'is', null)
        .returning(['id', 'owner_user_id'])
        .execute();
      const accountIds = accounts.map((a) => a.id);
      await trx
        .updateTable('access_grants')
        .set({ ended_at: now })
        .where('ended_at', 'is', null)
        .where((eb) =>
          eb.or([
            eb('organization_id', '=', orgId),
            ...(accountIds.length > 0 ? [eb('account_id', 'in', accountIds)] : []),
          ]),
        )
        .execute();
      return accounts;
    },

    /** Ends every open grant of this one account (grants of all the owner's accounts stay). */
    async endGrantsOfAccount(accountId: string, now: Date, trx: Database = db): Promise<number> {
      const r = await trx
        .updateTable('access_grants')
        .set({ ended_at: now })
        .where('account_id', '=', accountId)
        .where('ended_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },

    /** Grants not ended and not yet expired that cover these accounts, once per account they cover. */
    async openGrants(accounts: AccountRow[], now: Date, trx: Database = db): Promise<GrantRow[]> {
      if (accounts.length === 0) return [];
      const ids = accounts.map((a) => a.id);
      const grants = await trx
        .selectFrom('ntrip_accounts as a')
        .innerJoin('access_grants as g', (join) =>
          join.on('g.ended_at', 'is', null).on('g.valid_until', '>', now).on(COVERS),
        )
        .select([
          'g.id',
          'g.account_id',
          'a.id as for_account_id',
          'g.network_id',
          'g.valid_from',
          'g.valid_until',
          'g.source',
        ])
        .where('a.id', 'in', ids)
        .orderBy(['g.valid_until', 'g.id'])
        .execute();
      const networks = new Map(
        (await createCatalogueRepo(trx).networksByIds([...new Set(grants.map((g) => g.network_id))])).map((n) => [
          n.id,
          n,
        ]),
      );
      // A grant's network_id references its network, so every grant finds one.
      return grants.flatMap((g) => {
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
      const r = await trx
        .selectFrom('access_grants')
        .select((eb) => eb.fn.max('valid_until').as('until'))
        .where('account_id', '=', accountId)
        .where('network_id', '=', networkId)
        .where('source', 'in', ['tokens', 'manual'])
        .where('ended_at', 'is', null)
        .where('valid_until', '>', now)
        .executeTakeFirst();
      return r?.until ? new Date(r.until) : null;
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
      await trx
        .insertInto('access_grants')
        .values({
          id: values.id,
          account_id: values.accountId,
          owner_user_id: values.ownerUserId,
          organization_id: values.organizationId,
          network_id: values.networkId,
          valid_from: values.validFrom,
          valid_until: values.validUntil,
          source: values.source,
          reference_id: values.referenceId,
        })
        .execute();
    },

    /**
     * Moves the open grants of one subscription to the state it gives, in the billing transaction that changed it:
     * grants for all the buyer's accounts (or the organisation's), one per network, open until `validUntil`; those
     * of networks it no longer gives, or all of them when it is not entitled, end now. Idempotent.
     */
    async syncSubscriptionGrants(state: SubscriptionGrantState, now: Date, trx: Database = db): Promise<void> {
      const ref = state.subscriptionId;
      const networks = state.entitled ? state.networkIds : [];
      const ofSubscription = trx
        .updateTable('access_grants')
        .where('source', '=', 'subscription')
        .where('reference_id', '=', ref)
        .where('ended_at', 'is', null);
      await ofSubscription
        .set({ ended_at: now })
        .$if(networks.length > 0, (q) => q.where('network_id', 'not in', networks))
        .execute();
      for (const networkId of networks) {
        const updated = await ofSubscription
          .set({ valid_until: state.validUntil })
          .where('network_id', '=', networkId)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0) {
          await trx
            .insertInto('access_grants')
            .values({
              account_id: null,
              owner_user_id: state.userId,
              organization_id: state.organizationId,
              network_id: networkId,
              valid_from: now,
              valid_until: state.validUntil,
              source: 'subscription',
              reference_id: ref,
            })
            .execute();
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
      let matching = trx.selectFrom('ntrip_accounts as a').where('a.deleted_at', 'is', null);
      if (search) {
        const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        matching = matching.where((eb) =>
          eb.or([
            eb('a.username', 'ilike', pattern),
            eb('a.label', 'ilike', pattern),
            eb(OWNER_EMAIL, 'ilike', pattern),
            eb(eb.cast('a.id', 'text'), '=', search),
          ]),
        );
      }
      const rows = await matching
        .select(ACCOUNT_COLUMNS)
        .select(OWNER_EMAIL.as('owner_email'))
        .orderBy('a.created_at', 'desc')
        .orderBy('a.id')
        .limit(limit)
        .offset(offset)
        .execute();
      const total = await matching.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      return { rows, total: Number(total.n) };
    },

    async findWithOwner(id: string, trx: Database = db): Promise<AdminAccountRow | undefined> {
      return trx
        .selectFrom('ntrip_accounts as a')
        .select(ACCOUNT_COLUMNS)
        .select(OWNER_EMAIL.as('owner_email'))
        .where('a.id', '=', id)
        .where('a.deleted_at', 'is', null)
        .executeTakeFirst();
    },
  };
}
