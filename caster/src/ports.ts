/**
 * What the caster needs from the rest of the portal. The server implements these over its database; tests
 * implement them in memory. Nothing here knows about HTTP frameworks or SQL.
 */

/** What a rover gets (issue 36, ADR 0088); the same names as the contract's and the encoder's in gnss/. */
export type RtcmProfile = 'as-sent' | 'msm4' | 'legacy';
export type ProfileConstellation = 'GPS' | 'GLO' | 'GAL' | 'BDS' | 'QZS' | 'IRN' | 'SBAS';

export type DenyReason = 'bad_credentials' | 'disabled' | 'no_grant' | 'too_many_connections';

export type AuthDecision =
  /** `until`: when the access that allowed this login ends (its latest grant valid now), unless renewed. */
  | {
      allowed: true;
      accountId: string;
      ownerId: string;
      maxConnections: number;
      until: Date;
      /** What the account's rovers get; absent: 'as-sent' and every constellation. */
      rtcmProfile?: RtcmProfile;
      constellations?: readonly ProfileConstellation[] | null;
      /**
       * The portal's own connection test logged in (issue 17): a rover like the others (the account's limit, its
       * access, its session log) that the caster closes after limits.connectionTestMs and never reports as silent.
       */
      probe?: boolean;
      /**
       * How long (ms) the same username, password and mountpoint get this same answer, unless `onChange` says
       * otherwise first: the caster may answer such a login itself meanwhile (ADR 0100). Absent: it asks every time.
       */
      reusableMs?: number;
    }
  | AuthDenial;

/**
 * A refusal, with what the account's owner needs to fix it (issue 17). `accountId` is set whenever the username
 * names an account, also for a wrong password; the rover's answer never depends on it.
 */
export interface AuthDenial {
  allowed: false;
  reason: DenyReason;
  accountId?: string;
  /**
   * `disabled`: the account itself is switched off, or the portal user owning it is, or (an organisation's account)
   * its user is no longer a member of the organisation.
   */
  disabled?: 'account' | 'owner' | 'membership';
  /** `no_grant`: the network of the mountpoint asked for, when the mountpoint exists. */
  network?: { slug: string; name: string };
  /** `no_grant`: when this account's last access to that network ended; null when it never had any. */
  accessEndedAt?: Date | null;
}

/** What a connected account may use now: its connection limit and its networks (by slug) with their ends. */
export interface AccountAccess {
  maxConnections: number;
  networks: Map<string, Date>;
}

export interface AuthorizePort {
  /** `mountpoint` is a station's mountpoint or a network's automatic `{NETWORK}_NEAR` mountpoint. */
  authorize(username: string, password: string, mountpoint: string, now: Date): Promise<AuthDecision>;
  /**
   * For connected rovers: per account, its connection limit now and the networks (by slug) it may use now and until
   * when. An account that is gone or disabled, or has no grant valid now, is absent. One call for every connected
   * account.
   */
  access(accountIds: string[], now: Date): Promise<Map<string, AccountAccess>>;
  /**
   * Calls `listener` whenever answers given before may no longer hold (an account, a password, a grant or a limit
   * changed). Without it the caster never reuses an answer (`reusableMs`).
   */
  onChange?(listener: () => void): void;
}

/** The fields of an STR record beyond mountpoint, position and network, as the catalogue keeps them. */
export interface StreamDescription {
  identifier: string;
  format: string;
  formatDetails: string;
  carrier: number;
  navSystem: string;
  country: string;
  receiver: string;
  bitrate: number;
}

export interface CatalogueMountpoint {
  mountpoint: string;
  /** The network's slug; the automatic mountpoint of a network is `{SLUG in upper case}_NEAR`. */
  network: string;
  /** The station's surveyed position (WGS84); the height is ellipsoidal, null when the catalogue has none. */
  latitude: number;
  longitude: number;
  heightM?: number | null;
  /** The antenna the catalogue names (the receiver is the STR record's); empty or absent: not stated. */
  antenna?: string;
  str: StreamDescription;
  /** An admin's decisions on the integrity monitor (issue 33); absent: none. */
  integrity?: IntegrityControl;
}

export interface IntegrityControl {
  /** The station stays in the nearest-station choice whatever the monitor finds. */
  override: boolean;
  /** Raised by a re-survey: the station's position history starts again from the next position it sends. */
  surveyRevision: number;
}

/** Per network: when a reference position counts as moved, and how long a failed station must be good to return. */
export interface NetworkIntegritySettings {
  movedHorizontalM: number;
  movedVerticalM: number;
  goodPeriodMs: number;
}

export interface CatalogueNetwork {
  slug: string;
  name: string;
  operator: string;
  /** Shown in NET records; empty when the network has no page of its own. */
  webUrl: string;
  /** False for a private network: its mountpoints serve entitled rovers but stay out of the sourcetable. */
  listed: boolean;
  /** The reference frame its corrections are in, as one line (issue 32); in every STR record's misc field. */
  frame?: string | null;
  /** The monitor's defaults apply where this leaves a setting out. */
  integrity?: Partial<NetworkIntegritySettings>;
}

export interface PullFeedConfig {
  mountpoint: string;
  host: string;
  port: number;
  upstreamMountpoint: string;
  username: string | null;
  password: string | null;
  ntripVersion: 1 | 2;
}

export interface CatalogueSnapshot {
  networks: CatalogueNetwork[];
  mountpoints: CatalogueMountpoint[];
}

export interface CataloguePort {
  /** Every mountpoint the caster may serve; read again every few seconds, so it should be cheap. */
  snapshot(): Promise<CatalogueSnapshot>;
  /** True when `password` opens the push feed of `mountpoint`; false for a wrong password or no push feed. */
  verifySourcePassword(mountpoint: string, password: string): Promise<boolean>;
  pullFeeds(): Promise<PullFeedConfig[]>;
}

export type SessionEndReason =
  | 'client_closed'
  | 'slow_client'
  | 'idle'
  | 'source_gone'
  | 'shutdown'
  | 'error'
  | 'access_revoked';

export interface SessionRecord {
  accountId: string;
  mountpoint: string;
  remoteAddress: string;
  startedAt: Date;
  endedAt: Date;
  bytesSent: number;
  endReason: SessionEndReason;
  lastGga: { latitude: number; longitude: number } | null;
  /** What the session keeps of its live view (issue 17); absent from casters that do not report it. */
  userAgent?: string | null;
  /** The station that served it last (for `{NET}_NEAR`, the one chosen), and its distance from the last GGA. */
  servedStation?: string | null;
  distanceKm?: number | null;
  /** Shares (0–1) of the time the rover reported RTK fixed and float in its GGA; null when it sent none. */
  fixedShare?: number | null;
  floatShare?: number | null;
  /** The RTCM profile it was served with (issue 36). */
  rtcmProfile?: RtcmProfile;
}

/** A rover's session as it begins (admitted, its stream header about to be sent). */
export interface SessionStartRecord {
  accountId: string;
  mountpoint: string;
  remoteAddress: string;
  /** The same instant the session's SessionRecord carries as `startedAt`, so the two can be paired. */
  startedAt: Date;
  userAgent: string | null;
}

export interface StationStatus {
  mountpoint: string;
  online: boolean;
  lastDataAt: Date | null;
  /** Bits per second over the last measuring window. */
  bitrate: number;
}

export type IntegrityState = 'ok' | 'warning' | 'failing';
export type IntegrityCode =
  | 'position_moved'
  | 'position_mismatch'
  | 'descriptor_mismatch'
  | 'constellation_missing'
  | 'message_missing'
  | 'late'
  | 'crc_errors'
  | 'gap';

/** A station's integrity as the node holding its source sees it, on every change (issue 33). */
export interface StationIntegrityUpdate {
  mountpoint: string;
  state: IntegrityState;
  reasons: Array<{ code: IntegrityCode; level: 'warning' | 'failing'; message: string; since: Date }>;
  /** Out of the nearest-station choice: failing, or failed and not yet good for the network's good period. */
  excluded: boolean;
  /** The reference position the station sends (ECEF metres), for a re-survey; null before its first 1005/1006. */
  position: { x: number; y: number; z: number } | null;
  at: Date;
}

export interface FeedStatus {
  mountpoint: string;
  status: 'connecting' | 'connected' | 'error';
  lastError: string | null;
}

/**
 * Why a rover got no corrections: refused at login, throttled, or connected but sent nothing within the first
 * seconds (an offline mountpoint, or a nearest-station rover that sent no position).
 */
export type RefusalReason =
  | 'wrong_password'
  | 'unknown_username'
  | 'account_disabled'
  | 'no_access'
  | 'too_many_connections'
  | 'unknown_mountpoint'
  | 'mountpoint_offline'
  | 'near_no_position'
  | 'throttled';

/** What the owner needs to fix a refusal; which fields are set depends on the reason. */
export interface RefusalDetail {
  disabled?: 'account' | 'owner' | 'membership';
  network?: { slug: string; name: string };
  /** ISO time; null: the account never had access to that network. */
  accessEndedAt?: string | null;
  limit?: number;
  /** The account's other rovers at the time (too_many_connections), on this node and, with a bus, the others. */
  sessions?: Array<{ remoteAddress: string; mountpoint: string; since: string; userAgent: string | null }>;
  throttle?: 'pair' | 'name' | 'address';
  /** Seconds the rover was connected without receiving a frame (mountpoint_offline, near_no_position). */
  waitedSeconds?: number;
  /** mountpoint_offline: no source fed the station when the rover logged in; listed then, not after a wait. */
  offlineAtLogin?: boolean;
}

/**
 * Attempts of one minute aggregated: per account and reason (`scope` 'account'); per username when the caster
 * knows only the name (throttled before the password was checked: the port finds the account); per address for
 * names that have no account, which only the admin-wide log shows.
 */
export interface RefusalRecord {
  scope: 'account' | 'name' | 'address';
  accountId: string | null;
  /** The username for 'account' and 'name'; up to a few of the names tried for 'address'. */
  usernames: string[];
  reason: RefusalReason;
  minute: Date;
  count: number;
  firstAt: Date;
  lastAt: Date;
  /** Of the last attempt. */
  mountpoint: string;
  remoteAddress: string;
  userAgent: string | null;
  ntripVersion: 1 | 2;
  /** Of the last attempt: it came over a TLS port. */
  tls: boolean;
  detail: RefusalDetail;
}

export interface UsagePort {
  /** Called with batches, never per packet. */
  recordSessions(records: SessionRecord[]): Promise<void>;
  /** Sessions that began, in batches like the ended ones (optional: tests may leave it out). */
  recordSessionStarts?(records: SessionStartRecord[]): Promise<void>;
  /** Aggregated refused attempts, about once a second while there are any (optional: tests may leave it out). */
  recordRefusals?(records: RefusalRecord[]): Promise<void>;
  /** Called on every online/offline change and otherwise at most every few seconds per station. */
  stationStatus(updates: StationStatus[]): Promise<void>;
  /** A station's integrity, on every change (optional: tests may leave it out). */
  stationIntegrity?(updates: StationIntegrityUpdate[]): Promise<void>;
  /** State of a pull feed's connection to its upstream caster, on every change. */
  feedStatus(update: FeedStatus): Promise<void>;
}

export interface CasterPorts {
  auth: AuthorizePort;
  catalogue: CataloguePort;
  usage: UsagePort;
}

/** What the archive stored for one station's UTC hour since its last report; the server adds it to the index. */
export interface ArchiveHourUpdate {
  mountpoint: string;
  /** Start of the UTC hour. */
  hour: Date;
  /** RTCM bytes and frames stored. */
  bytes: number;
  frames: number;
  /** Bytes the store holds for them (compressed). */
  storedBytes: number;
  /** Frames received for the hour and not archived: the archive's queue was full, or the store failed. */
  droppedFrames: number;
  /** Arrival times of the first and last frame stored; null when nothing was. */
  firstFrameAt: Date | null;
  lastFrameAt: Date | null;
  /** Observation epochs (UTC) of the first and last observation message stored; null when none was. */
  firstEpoch: Date | null;
  lastEpoch: Date | null;
  /**
   * Minutes of the hour (0–59, ascending) holding an observation epoch stored in it: what RINEX of the hour can
   * deliver, whatever the frames' arrival times (a replay files old epochs under the hour it arrives in).
   */
  epochMinutes: number[];
  /** Message types stored, ascending. */
  messageTypes: number[];
}

/** The archive's index (docs/adr, archive). Called with batches every few seconds, never per frame. */
export interface ArchiveIndexPort {
  recordHours(updates: ArchiveHourUpdate[]): Promise<void>;
}
