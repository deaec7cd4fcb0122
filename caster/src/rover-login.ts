import type { AccountSlots, Slot } from './admission.ts';
import type { CatalogueCache } from './catalogue-cache.ts';
import type { Clock } from './clock.ts';
import { type ClientConnection, reject, remoteOf } from './connection.ts';
import { type LoginThrottle, THROTTLED_TEXT } from './login-throttle.ts';
import type { AuthDecision, AuthorizePort, RefusalDetail, RefusalReason, RtcmProfile } from './ports.ts';
import { type RefusalLog, refusalOfDenial } from './refusals.ts';
import { type Mount, NEAR_SUFFIX, type Rover } from './relay/mount.ts';
import { splitProfileSuffix } from './relay/profiles.ts';
import type { NtripRequest } from './request.ts';
import { DENIAL, errorResponse, LEFT_ORGANIZATION } from './responses.ts';
import type { Logger } from './session-log.ts';
import type { CasterIdentity } from './sourcetable.ts';
import { isTls } from './tls.ts';

export interface RoverLoginDeps {
  auth: Pick<AuthorizePort, 'authorize'>;
  cache: CatalogueCache;
  clock: Clock;
  logger: Logger;
  logins: LoginThrottle;
  refusals: RefusalLog;
  identity(): CasterIdentity;
  /** The logged-in rovers by account on this node. */
  roversByAccount: Map<string, Set<Rover>>;
  /** The accounts' connections on this node, rovers being let in included. */
  slots: AccountSlots;
  /** An account's rovers on the other nodes, as last announced. */
  remoteCount(accountId: string): number;
  /** Takes one of the account's connections across the caster nodes, or null when the others hold them all. */
  claim(accountId: string, max: number): Promise<Slot | null>;
}

/** True when a credential holds a control character (NUL, CR, …): no account has one, so it is a wrong login. */
const hasControl = (text: string) => /\p{Cc}/u.test(text);

/** A rover let in: what it asked for and who it is. */
export interface AdmittedRover {
  decision: Extract<AuthDecision, { allowed: true }>;
  /** The station asked for, or null for a nearest-station mountpoint. */
  mount: Mount | null;
  nearNetwork: string | null;
  /** The mountpoint name as the caster spells it, without a profile suffix. */
  name: string;
  /** The profile the mountpoint's suffix chose over the account's; null without one. */
  suffixProfile: RtcmProfile | null;
  ip: string;
  userAgent: string | null;
  /** The connection the rover takes (null for the connection test): released once the rover is registered. */
  slot: Slot | null;
  /** Its connection across the caster nodes (null for the connection test): held until the rover ends. */
  lease: Slot | null;
}

/**
 * A rover's login (GET): the sourcetable for an empty mountpoint, the mountpoint or nearest-station name, the
 * login throttle, the auth port's decision and the account's connection limit. Whatever is refused is answered
 * here and written to the refused-attempts log; null then.
 */
export async function admitRover(
  socket: ClientConnection,
  req: NtripRequest,
  deps: RoverLoginDeps,
): Promise<AdmittedRover | null> {
  const { auth, clock, logger, logins } = deps;
  const ip = remoteOf(socket);
  const v = req.ntripVersion;
  if (req.mountpoint === '') {
    reject(socket, deps.cache.sourcetable(req, deps.identity()));
    return null;
  }
  const userAgent = req.headers.get('user-agent') ?? null;
  // A station's name is answered from what the cache holds, without waiting: only a name it does not know may need
  // the catalogue read again.
  let mount = deps.cache.knownMount(req.mountpoint) ?? (await deps.cache.resolveMount(req.mountpoint));
  let nearNetwork = mount ? null : await deps.cache.resolveNear(req.mountpoint);
  // A name the catalogue knows as it is comes first; else a profile suffix on a name it knows (ADR 0088).
  let suffixProfile: RtcmProfile | null = null;
  if (!mount && !nearNetwork) {
    const { base, profile } = splitProfileSuffix(req.mountpoint);
    if (profile) {
      mount = deps.cache.knownMount(base) ?? (await deps.cache.resolveMount(base));
      nearNetwork = mount ? null : await deps.cache.resolveNear(base);
      if (mount || nearNetwork) suffixProfile = profile;
    }
  }
  if (!mount && !nearNetwork) {
    // NTRIP 1 clients expect the sourcetable for a mountpoint that does not exist.
    reject(
      socket,
      v === 2
        ? errorResponse(2, 404, `Mountpoint '${req.mountpoint}' not found`)
        : deps.cache.sourcetable(req, deps.identity()),
    );
    // The answer does not wait for it: whose rover asked is checked afterwards, for its refused-attempts list.
    const { credentials } = req;
    const attempt = credentials && logins.attempt(ip, credentials.username, credentials.password);
    if (!credentials || !attempt || typeof attempt === 'string') return null;
    if (hasControl(credentials.username) || hasControl(credentials.password) || hasControl(req.mountpoint)) {
      void attempt.failed();
      return null;
    }
    auth.authorize(credentials.username, credentials.password, req.mountpoint, new Date(clock.now())).then(
      (decision) => {
        if (!decision.allowed && decision.reason === 'bad_credentials') void attempt.failed();
        else attempt.settled();
        if (decision.allowed || !decision.accountId) return;
        recordRefusal(
          deps,
          socket,
          req,
          ip,
          userAgent,
          decision.accountId,
          decision.reason === 'bad_credentials' ? 'wrong_password' : 'unknown_mountpoint',
        );
      },
      (err: unknown) => {
        attempt.settled();
        logger.error({ err }, 'authorisation for the refused-attempts log failed');
      },
    );
    return null;
  }
  const name = mount ? mount.name : `${(nearNetwork as string).toUpperCase()}${NEAR_SUFFIX}`;
  if (!req.credentials) {
    reject(socket, errorResponse(v, 401, 'Unauthorized: credentials required', challenge(name)));
    return null;
  }
  const { username, password } = req.credentials;
  // The failure this attempt may be is counted before its password is checked (ADR 0040).
  const attempt = logins.attempt(ip, username, password);
  if (typeof attempt === 'string') {
    recordRefusal(deps, socket, req, ip, userAgent, null, 'throttled', { throttle: attempt });
    reject(socket, errorResponse(v, 429, THROTTLED_TEXT[attempt]));
    return null;
  }
  if (hasControl(username) || hasControl(password)) {
    await attempt.failed();
    recordRefusal(deps, socket, req, ip, userAgent, null, hasControl(username) ? 'unknown_username' : 'wrong_password');
    reject(socket, errorResponse(v, 401, DENIAL.bad_credentials.text, challenge(name)));
    return null;
  }
  let decision: AuthDecision;
  try {
    decision = await auth.authorize(username, password, name, new Date(clock.now()));
  } catch (err) {
    attempt.settled();
    throw err;
  }
  // A wrong password's answer waits for the other caster nodes to count it (ADR 0072).
  if (!decision.allowed && decision.reason === 'bad_credentials') await attempt.failed();
  else attempt.settled();
  if (socket.destroyed) return null;
  if (!decision.allowed) {
    const refusal = refusalOfDenial(decision);
    recordRefusal(deps, socket, req, ip, userAgent, refusal.accountId, refusal.reason, refusal.detail);
    const denial = decision.disabled === 'membership' ? LEFT_ORGANIZATION : DENIAL[decision.reason];
    reject(socket, errorResponse(v, denial.status, denial.text, denial.status === 401 ? challenge(name) : {}));
    return null;
  }
  const granted = decision;
  // Counted in this synchronous step, before anything else awaits: parallel logins cannot share one free connection.
  const slot = deps.slots.take(granted.accountId, granted.maxConnections - deps.remoteCount(granted.accountId));
  if (!slot) return tooMany(deps, socket, req, ip, userAgent, granted);
  // This node's slot is held while the other nodes are asked, so its own parallel logins need not wait.
  let lease: Slot | null;
  try {
    lease = await deps.claim(granted.accountId, granted.maxConnections);
  } catch (err) {
    slot.release();
    throw err;
  }
  if (!lease) {
    slot.release();
    return tooMany(deps, socket, req, ip, userAgent, granted);
  }
  if (socket.destroyed) {
    slot.release();
    lease.release();
    return null;
  }
  return {
    decision: granted,
    mount: mount ?? null,
    nearNetwork: nearNetwork ?? null,
    name,
    suffixProfile,
    ip,
    userAgent,
    slot,
    lease,
  };
}

/** Refuses a login past its account's connection limit, with the account's sessions for the refused-attempts log. */
function tooMany(
  deps: RoverLoginDeps,
  socket: ClientConnection,
  req: NtripRequest,
  ip: string,
  userAgent: string | null,
  granted: Extract<AuthDecision, { allowed: true }>,
): null {
  recordRefusal(deps, socket, req, ip, userAgent, granted.accountId, 'too_many_connections', {
    limit: granted.maxConnections,
    sessions: [...(deps.roversByAccount.get(granted.accountId) ?? [])].map((r) => ({
      remoteAddress: r.remoteAddress,
      mountpoint: r.requested,
      since: r.startedAt.toISOString(),
      userAgent: r.userAgent,
    })),
  });
  const text = `Too many connections for this account (at most ${granted.maxConnections})`;
  reject(socket, errorResponse(req.ntripVersion, 429, text));
  return null;
}

/** The Basic challenge of a 401 answer for a mountpoint. */
const challenge = (name: string) => ({ 'WWW-Authenticate': `Basic realm="/${name}"` });

/** Writes a refused login to the refused-attempts log. */
function recordRefusal(
  deps: RoverLoginDeps,
  socket: ClientConnection,
  req: NtripRequest,
  ip: string,
  userAgent: string | null,
  accountId: string | null,
  reason: RefusalReason,
  detail: RefusalDetail = {},
): void {
  deps.refusals.record({
    accountId,
    username: req.credentials?.username ?? '',
    reason,
    mountpoint: req.mountpoint,
    remoteAddress: ip,
    userAgent,
    ntripVersion: req.ntripVersion,
    tls: isTls(socket),
    detail,
  });
}
