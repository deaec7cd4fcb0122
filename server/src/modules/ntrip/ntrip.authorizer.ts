import { createHmac, randomBytes } from 'node:crypto';
import type { AccountAccess, AuthDecision, AuthDenial, AuthorizePort } from '@portal/caster';
import { NEAR_MOUNTPOINT_SUFFIX } from '@portal/contract';
import { hashPassword, verifyPassword } from '../../shared/password-hash.ts';
import { looksLikeProbeToken } from './ntrip.probe.ts';
import type { NtripRepo } from './ntrip.repo.ts';

export interface AuthorizerOptions {
  repo: Pick<NtripRepo, 'authEpoch' | 'accountsForLogin' | 'networkOfMountpoint' | 'accessOf' | 'accessEndedAt'>;
  /** How long a decision is reused; an allowed decision never outlives the grant behind it. */
  ttlMs?: number;
  /** How often the auth epoch (moved by every account or grant change) is read. */
  epochPollMs?: number;
  /** Most cached decisions; past it the cache starts over. */
  maxEntries?: number;
  verify?: (password: string, hash: string) => Promise<boolean>;
  /** The API's connection test (ntrip.probe.ts): a one-time token stands in for the account's password. */
  probe?: { accept(password: string, username: string, mountpoint: string): boolean };
  onError?: (err: unknown) => void;
}

export interface Authorizer extends AuthorizePort {
  invalidate(): void;
  /** Told at every invalidation, so the caster forgets the logins it answers itself (ADR 0100). */
  onChange(listener: () => void): void;
  close(): void;
  /** Password hashes checked so far (scrypt is the expensive part a storm must not repeat). */
  readonly verifications: number;
}

interface Entry {
  decision: AuthDecision;
  expiresAt: number;
}

/** Most usernames one account query asks for; more logins in one turn make more queries. */
const MAX_BATCH = 500;

/**
 * Lookups by name made in one event-loop turn, answered by one `load` after the turn's I/O: in a reconnection storm
 * the logins whose heads were read together ask the database once instead of once each.
 */
function batched<V>(load: (keys: string[]) => Promise<Map<string, V>>): (key: string) => Promise<V | undefined> {
  let waiting = new Map<string, Array<{ resolve(value: V | undefined): void; reject(err: unknown): void }>>();
  const flush = () => {
    const batch = waiting;
    waiting = new Map();
    const keys = [...batch.keys()];
    for (let i = 0; i < keys.length; i += MAX_BATCH) {
      const part = keys.slice(i, i + MAX_BATCH);
      load(part).then(
        (found) => {
          for (const key of part) for (const w of batch.get(key) ?? []) w.resolve(found.get(key));
        },
        (err: unknown) => {
          for (const key of part) for (const w of batch.get(key) ?? []) w.reject(err);
        },
      );
    }
  };
  return (key) =>
    new Promise((resolve, reject) => {
      if (waiting.size === 0) setImmediate(flush);
      const list = waiting.get(key);
      if (list) list.push({ resolve, reject });
      else waiting.set(key, [{ resolve, reject }]);
    });
}

/**
 * authorize() over the database with a short-lived decision cache. The cache key is an HMAC of username,
 * password and mountpoint under a key that lives only in this process, so the cache never holds a password
 * and a different password never hits another's entry. Concurrent attempts with the same key share one lookup.
 */
export function createAuthorizer(options: AuthorizerOptions): Authorizer {
  const { repo } = options;
  const ttlMs = options.ttlMs ?? 30_000;
  const maxEntries = options.maxEntries ?? 50_000;
  const verify = options.verify ?? verifyPassword;
  const secret = randomBytes(32);
  const cache = new Map<string, Entry>();
  const inflight = new Map<string, Promise<AuthDecision>>();
  /**
   * Passwords that matched an account's stored hash, by HMAC of username and password: the hash they matched. The
   * same password against the same hash cannot answer otherwise, so rovers reconnecting in a storm after their
   * decisions expired or were cleared (any account change moves the epoch) skip scrypt unless the password changed.
   */
  const verified = new Map<string, string>();
  const accountForLogin = batched((usernames) => repo.accountsForLogin(usernames));
  let epoch: number | null = null;
  let verifications = 0;
  let generation = 0;
  let decoy: Promise<string> | null = null;
  const decoyHash = () => {
    decoy ??= hashPassword(randomBytes(16).toString('hex'));
    return decoy;
  };

  const changeListeners: Array<() => void> = [];
  const invalidate = () => {
    cache.clear();
    inflight.clear();
    generation++;
    for (const listener of changeListeners) listener();
  };
  /** An allowed answer says how long it is cached: the caster may answer the same login itself that long. */
  const reusable = (entry: Entry, now: number): AuthDecision =>
    entry.decision.allowed ? { ...entry.decision, reusableMs: entry.expiresAt - now } : entry.decision;

  const poll = setInterval(() => {
    repo.authEpoch().then(
      (current) => {
        if (epoch !== null && current !== epoch) invalidate();
        epoch = current;
      },
      (err) => options.onError?.(err),
    );
  }, options.epochPollMs ?? 1000);
  poll.unref();

  async function checkPassword(username: string, password: string, hash: string, known: boolean): Promise<boolean> {
    const key = createHmac('sha256', secret).update(`${username.toLowerCase()}\0${password}`).digest('base64');
    if (known && verified.get(key) === hash) return true;
    verifications++;
    const ok = await verify(password, hash);
    if (ok && known) {
      if (verified.size >= maxEntries) verified.clear();
      verified.set(key, hash);
    }
    return ok;
  }

  async function decide(username: string, password: string, mountpoint: string, now: Date): Promise<Entry> {
    // The account is named in every denial, for its refused-attempts list; the rover's answer is the same.
    const deny = (denial: Omit<AuthDenial, 'allowed'>): Entry => ({
      decision: { allowed: false, ...denial },
      expiresAt: now.getTime() + ttlMs,
    });
    const account = await accountForLogin(username);
    // An unknown username costs the same hash as a known one, so timing does not tell which usernames exist.
    const hash = account?.password_hash ?? (await decoyHash());
    const probe = looksLikeProbeToken(password) && !!options.probe?.accept(password, username, mountpoint);
    if ((!probe && !(await checkPassword(username, password, hash, !!account))) || !account) {
      return deny({ reason: 'bad_credentials', ...(account && { accountId: account.id }) });
    }
    const accountId = account.id;
    if (!account.enabled || account.owner_disabled) {
      return deny({ reason: 'disabled', accountId, disabled: account.enabled ? 'owner' : 'account' });
    }
    if (account.holder_left) return deny({ reason: 'disabled', accountId, disabled: 'membership' });
    const network = await repo.networkOfMountpoint(mountpoint, NEAR_MOUNTPOINT_SUFFIX);
    if (!network) return deny({ reason: 'no_grant', accountId });
    const until = (await repo.accessOf([account.id], now)).find((row) => row.network_id === network.id)?.until;
    if (!until) {
      const accessEndedAt = await repo.accessEndedAt(account.id, network.id, now);
      return deny({
        reason: 'no_grant',
        accountId,
        network: { slug: network.slug, name: network.name },
        accessEndedAt,
      });
    }
    return {
      decision: {
        allowed: true,
        accountId: account.id,
        ownerId: account.owner_user_id,
        maxConnections: account.max_connections,
        until,
        rtcmProfile: account.rtcm_profile,
        constellations: account.constellations,
        ...(probe && { probe: true }),
      },
      expiresAt: Math.min(now.getTime() + ttlMs, until.getTime()),
    };
  }

  return {
    get verifications() {
      return verifications;
    },
    invalidate,
    onChange(listener) {
      changeListeners.push(listener);
    },
    close: () => clearInterval(poll),
    async access(accountIds, now) {
      const byAccount = new Map<string, AccountAccess>();
      for (const row of await repo.accessOf(accountIds, now)) {
        const access = byAccount.get(row.account_id) ?? { maxConnections: row.max_connections, networks: new Map() };
        access.networks.set(row.network_slug, row.until);
        byAccount.set(row.account_id, access);
      }
      return byAccount;
    },
    async authorize(username, password, mountpoint, now) {
      // No account has a control character in its name or password, and PostgreSQL refuses a NUL in text.
      if (/\p{Cc}/u.test(username) || /\p{Cc}/u.test(password)) return { allowed: false, reason: 'bad_credentials' };
      // A connection-test token is good for one login: its answer is never cached, so a replay cannot reuse it.
      if (looksLikeProbeToken(password)) return (await decide(username, password, mountpoint, now)).decision;
      const key = createHmac('sha256', secret)
        .update(`${username.toLowerCase()}\0${password}\0${mountpoint.toUpperCase()}`)
        .digest('base64');
      const hit = cache.get(key);
      if (hit && hit.expiresAt > now.getTime()) return reusable(hit, now.getTime());
      const pending = inflight.get(key);
      if (pending) return pending;
      const started = generation;
      const work = decide(username, password, mountpoint, now).then((entry) => {
        // A change that landed while this lookup ran may have made its answer stale: answer it, keep nothing.
        if (generation !== started) return entry.decision;
        if (cache.size >= maxEntries) cache.clear();
        cache.set(key, entry);
        return reusable(entry, now.getTime());
      });
      inflight.set(key, work);
      try {
        return await work;
      } finally {
        if (inflight.get(key) === work) inflight.delete(key);
      }
    },
  };
}
