import type {
  AccountAccess,
  AuthDecision,
  CasterPorts,
  CatalogueMountpoint,
  CatalogueNetwork,
  FeedStatus,
  ProfileConstellation,
  PullFeedConfig,
  RtcmProfile,
  SessionRecord,
  StationIntegrityUpdate,
  StationStatus,
} from '../../src/index.ts';

export interface FakeAccount {
  username: string;
  password: string;
  accountId: string;
  enabled?: boolean;
  networks: string[];
  maxConnections?: number;
  /** End of the account's access to its networks; far in the future unless a test sets it. */
  until?: Date;
  /** What its rovers get (issue 36); absent: the station's frames as sent. */
  rtcmProfile?: RtcmProfile;
  constellations?: ProfileConstellation[] | null;
}

const FAR_FUTURE = new Date('2100-01-01T00:00:00Z');

export function station(mountpoint: string, network: string, latitude: number, longitude: number): CatalogueMountpoint {
  return {
    mountpoint,
    network,
    latitude,
    longitude,
    str: {
      identifier: `${mountpoint} town`,
      format: 'RTCM 3.3',
      formatDetails: '1005(10),1077(1)',
      carrier: 2,
      navSystem: 'GPS+GLO+GAL',
      country: 'NLD',
      receiver: 'TEST RX',
      bitrate: 9600,
    },
  };
}

/** In-memory ports: what the server's database ports do, minus the database. */
export class FakePorts implements CasterPorts {
  networks: CatalogueNetwork[] = [];
  stations: CatalogueMountpoint[] = [];
  accounts: FakeAccount[] = [];
  sourcePasswords = new Map<string, string>();
  pulls: PullFeedConfig[] = [];
  sessions: SessionRecord[] = [];
  sessionBatches = 0;
  statuses: StationStatus[] = [];
  feedStatuses: FeedStatus[] = [];
  integrity: StationIntegrityUpdate[] = [];
  authorizeCalls = 0;
  /** The account ids of each access check the caster made. */
  accessCalls: string[][] = [];
  /** How long an allowed login's answer holds (the server's authorizer caches it); undefined: it is never reused. */
  reusableMs: number | undefined;
  private readonly changeListeners: Array<() => void> = [];

  /** An account, password, grant or limit changed, as the server's authorizer tells the caster. */
  changed(): void {
    for (const listener of this.changeListeners) listener();
  }

  auth = {
    authorize: async (username: string, password: string, mountpoint: string): Promise<AuthDecision> => {
      this.authorizeCalls++;
      const account = this.accounts.find((a) => a.username === username);
      if (!account || account.password !== password) return { allowed: false, reason: 'bad_credentials' };
      if (account.enabled === false) return { allowed: false, reason: 'disabled' };
      const network =
        this.stations.find((s) => s.mountpoint.toLowerCase() === mountpoint.toLowerCase())?.network ??
        this.networks.find((n) => `${n.slug.toUpperCase()}_NEAR` === mountpoint.toUpperCase())?.slug;
      if (!network || !account.networks.includes(network)) return { allowed: false, reason: 'no_grant' };
      return {
        allowed: true,
        accountId: account.accountId,
        ownerId: `owner-${account.accountId}`,
        maxConnections: account.maxConnections ?? 1,
        until: account.until ?? FAR_FUTURE,
        ...(account.rtcmProfile && { rtcmProfile: account.rtcmProfile }),
        ...(account.constellations && { constellations: account.constellations }),
        ...(this.reusableMs !== undefined && { reusableMs: this.reusableMs }),
      };
    },
    onChange: (listener: () => void) => {
      this.changeListeners.push(listener);
    },
    access: async (accountIds: string[], now: Date): Promise<Map<string, AccountAccess>> => {
      this.accessCalls.push(accountIds);
      const access = new Map<string, AccountAccess>();
      for (const account of this.accounts) {
        const until = account.until ?? FAR_FUTURE;
        if (!accountIds.includes(account.accountId) || account.enabled === false || until <= now) continue;
        access.set(account.accountId, {
          maxConnections: account.maxConnections ?? 1,
          networks: new Map(account.networks.map((n) => [n, until])),
        });
      }
      return access;
    },
  };

  catalogue = {
    snapshot: async () => ({ networks: this.networks, mountpoints: this.stations }),
    verifySourcePassword: async (mountpoint: string, password: string) =>
      this.sourcePasswords.get(mountpoint.toLowerCase()) === password,
    pullFeeds: async () => this.pulls,
  };

  usage = {
    recordSessions: async (records: SessionRecord[]) => {
      this.sessionBatches++;
      this.sessions.push(...records);
    },
    stationStatus: async (updates: StationStatus[]) => {
      this.statuses.push(...updates);
    },
    feedStatus: async (update: FeedStatus) => {
      this.feedStatuses.push(update);
    },
    stationIntegrity: async (updates: StationIntegrityUpdate[]) => {
      this.integrity.push(...updates);
    },
  };

  addNetwork(slug: string, name = slug.toUpperCase()): this {
    this.networks.push({
      slug,
      name,
      operator: `${name} operator`,
      webUrl: `https://example.test/${slug}`,
      listed: true,
    });
    return this;
  }

  addStation(mountpoint: string, network: string, lat: number, lon: number, sourcePassword = 'src-secret'): this {
    this.stations.push(station(mountpoint, network, lat, lon));
    this.sourcePasswords.set(mountpoint.toLowerCase(), sourcePassword);
    return this;
  }
}

/**
 * Decisions as the server's authorizer gives them when it has none cached: a database lookup later, and logins that
 * arrive while one is under way share it, so their decisions all arrive in one turn of the event loop.
 */
export function slowDecisions(p: FakePorts, ms = 30) {
  const decide = p.auth.authorize;
  let lookup: Promise<void> | null = null;
  p.auth.authorize = async (...args) => {
    lookup ??= new Promise<void>((resolve) => setTimeout(resolve, ms)).then(() => {
      lookup = null;
    });
    await lookup;
    return decide(...args);
  };
}
