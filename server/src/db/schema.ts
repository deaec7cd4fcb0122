import type { NetworkTranslations, ProfileConstellation, ReferenceFrame, RtcmProfile } from '@portal/contract';
import type { ColumnType, Generated } from 'kysely';

/** Row types of the tables the migrations create. Each module adds its tables here when it adds a migration. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface SchemaMigrationsTable {
  name: string;
  checksum: string;
  applied_at: Generated<Date>;
}

export interface UsersTable {
  id: Generated<string>;
  firebase_uid: string;
  email: string | null;
  display_name: string | null;
  photo_url: string | null;
  is_admin: Generated<boolean>;
  disabled: Generated<boolean>;
  terms_accepted_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The published terms version terms_accepted_at is for; null before any was published (migration 202611261400). */
  terms_version: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AppMetaTable {
  id: Generated<boolean>;
  gtag_id: Generated<string>;
  updated_at: Timestamp;
  updated_by: string | null;
}

export interface PageMetaTable {
  page: string;
  title: string;
  description: string;
  updated_at: Timestamp;
  updated_by: string | null;
}

export interface NetworksTable {
  id: Generated<string>;
  slug: string;
  name: string;
  description: Generated<string>;
  operator: Generated<string>;
  region: Generated<string>;
  status: Generated<'active' | 'maintenance' | 'retired'>;
  is_public: Generated<boolean>;
  token_price_per_day: Generated<number>;
  /** {"nl": {"name", "description"}}: the texts in languages besides English (contract networkTranslationsSchema). */
  translations: ColumnType<NetworkTranslations, string | undefined, string>;
  /** Days the RTCM archive keeps this network's stations' hours. */
  archive_retention_days: Generated<number>;
  /** Migration 202611281400: contract referenceFrameSchema, null until an admin sets it. */
  reference_frame: ColumnType<ReferenceFrame | null, string | null | undefined, string | null>;
  integrity_moved_horizontal_m: Generated<number>;
  integrity_moved_vertical_m: Generated<number>;
  integrity_good_period_s: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface StationsTable {
  id: Generated<string>;
  network_id: string;
  mountpoint: string;
  identifier: Generated<string>;
  country: string;
  latitude: number;
  longitude: number;
  height_m: number | null;
  receiver: Generated<string>;
  antenna: Generated<string>;
  format: Generated<string>;
  format_details: Generated<string>;
  nav_system: Generated<string>;
  carrier: Generated<number>;
  bitrate: Generated<number>;
  status: Generated<'online' | 'offline'>;
  last_data_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  status_reported_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  integrity_state: Generated<'ok' | 'warning' | 'failing'>;
  integrity_reasons: ColumnType<IntegrityReasonJson[], string | undefined, string>;
  integrity_excluded: Generated<boolean>;
  integrity_position: ColumnType<{ x: number; y: number; z: number } | null, string | null | undefined, string | null>;
  integrity_override: Generated<boolean>;
  integrity_acknowledged_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  survey_revision: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

/** One reason of a station's integrity state as stored (contract stationIntegritySchema, since as ISO). */
export interface IntegrityReasonJson {
  code:
    | 'position_moved'
    | 'position_mismatch'
    | 'descriptor_mismatch'
    | 'constellation_missing'
    | 'message_missing'
    | 'late'
    | 'crc_errors'
    | 'gap';
  level: 'warning' | 'failing';
  message: string;
  since: string;
}

export interface StationStateChangesTable {
  id: Generated<number>;
  station_id: string;
  at: Generated<Date>;
  online: boolean;
  integrity: 'ok' | 'warning' | 'failing';
  causes: Generated<string>;
}

export interface FeedsTable {
  id: Generated<string>;
  network_id: string;
  station_id: string;
  kind: 'push' | 'pull';
  enabled: Generated<boolean>;
  source_password_hash: string | null;
  upstream_host: string | null;
  upstream_port: number | null;
  upstream_mountpoint: string | null;
  upstream_username: string | null;
  upstream_password_enc: string | null;
  upstream_ntrip_version: number | null;
  status: Generated<'idle' | 'connecting' | 'connected' | 'error'>;
  last_error: string | null;
  created_at: Generated<Date>;
  updated_at: Timestamp;
  /** The user who runs the base (migration 202611282010): gets its station's outage alerts. */
  owner_user_id: string | null;
}

export interface OrganizationsTable {
  id: Generated<string>;
  name: string;
  created_by: string;
  created_at: Generated<Date>;
  /** Set while an operator has the organisation disabled (migration 202611261310). */
  disabled_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The organisation's tokens; the running sum of organization_token_ledger (migration 202611261200). */
  token_balance: Generated<number>;
}

export interface OrganizationTokenLedgerTable {
  id: Generated<number>;
  /** No foreign key: the history outlives the organisation. */
  organization_id: string;
  kind: 'transfer_in' | 'activation_spend';
  delta: number;
  balance_after: number;
  reference_id: string | null;
  note: string | null;
  created_by: string | null;
  created_at: Generated<Date>;
}

export interface OrganizationMembersTable {
  organization_id: string;
  user_id: string;
  role: 'owner' | 'admin' | 'member';
  joined_at: Generated<Date>;
}

export interface OrganizationInvitesTable {
  organization_id: string;
  email: string;
  status: Generated<'pending' | 'accepted' | 'declined' | 'revoked'>;
  invited_by: string | null;
  created_at: Generated<Date>;
  updated_at: Timestamp;
  /** SHA-256 (hex) of the invite link's secret; null once used, and for invites sent before links existed. */
  token_hash: string | null;
  accepted_by: string | null;
  /** The newcomer this invite's link let sign up while sign-up is by invitation only; it admits nobody else. */
  signed_up_user_id: Generated<string | null>;
}

export interface DemoRequestsTable {
  id: Generated<string>;
  first_name: string;
  last_name: string;
  email: string;
  logged_in_email: Generated<string>;
  user_id: string | null;
  company: Generated<string>;
  phone_number: Generated<string>;
  submitted_from: Generated<string>;
  message: Generated<string>;
  gclid: Generated<string>;
  created_at: Generated<Date>;
}

export interface NtripAccountsTable {
  id: Generated<string>;
  owner_user_id: string;
  username: string;
  password_hash: string;
  label: Generated<string>;
  enabled: Generated<boolean>;
  max_connections: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Timestamp;
  deleted_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Set: the organisation's account, used by the member owner_user_id (migration 202611261200). */
  organization_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** What its rovers get (issue 36, migration 202611282000_webhook_events.sql): 'as-sent', 'msm4' or 'legacy'. */
  rtcm_profile: Generated<RtcmProfile>;
  /** The constellations its rovers get; null: every one the station sends. */
  constellations: ColumnType<
    ProfileConstellation[] | null,
    ProfileConstellation[] | null | undefined,
    ProfileConstellation[] | null
  >;
}

export interface AccessGrantsTable {
  id: Generated<string>;
  account_id: string | null;
  owner_user_id: string;
  /** Set: an all-accounts grant of an organisation, covering its members' accounts (migration 202611231910). */
  organization_id: ColumnType<string | null, string | null | undefined, string | null>;
  network_id: string;
  valid_from: Timestamp;
  valid_until: Timestamp;
  source: 'subscription' | 'tokens' | 'manual';
  reference_id: string | null;
  ended_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: Generated<Date>;
}

export interface NtripSessionsTable {
  id: Generated<number>;
  account_id: string;
  mountpoint: string;
  remote_address: string;
  started_at: Timestamp;
  ended_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  bytes_sent: Generated<number>;
  end_reason: string | null;
  last_gga_lat: number | null;
  last_gga_lon: number | null;
  user_agent: ColumnType<string | null, string | null | undefined, string | null>;
  served_station: ColumnType<string | null, string | null | undefined, string | null>;
  distance_km: ColumnType<number | null, number | null | undefined, number | null>;
  fixed_share: ColumnType<number | null, number | null | undefined, number | null>;
  float_share: ColumnType<number | null, number | null | undefined, number | null>;
  /** The RTCM profile it was served with (issue 36); null for sessions from before. */
  rtcm_profile: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface NtripAuthEpochTable {
  id: Generated<boolean>;
  epoch: Generated<number>;
}

export interface UserPhotosTable {
  user_id: string;
  content_type: string;
  bytes: Uint8Array;
  sha256: string;
  updated_at: Generated<Date>;
}

type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface ArchiveHoursTable {
  mountpoint: string;
  hour: ColumnType<Date, Date | string, Date | string>;
  station_id: string | null;
  bytes: Generated<number>;
  frames: Generated<number>;
  stored_bytes: Generated<number>;
  dropped_frames: Generated<number>;
  first_frame_at: NullableTimestamp;
  last_frame_at: NullableTimestamp;
  first_epoch: NullableTimestamp;
  last_epoch: NullableTimestamp;
  /** Migration 202611281330: minutes of the hour (0–59) holding a stored observation epoch. */
  epoch_minutes: ColumnType<number[], number[] | undefined, number[]>;
  message_types: ColumnType<number[], number[] | undefined, number[]>;
  updated_at: Generated<Date>;
}

export interface DB {
  schema_migrations: SchemaMigrationsTable;
  users: UsersTable;
  user_photos: UserPhotosTable;
  app_meta: AppMetaTable;
  page_meta: PageMetaTable;
  organizations: OrganizationsTable;
  organization_members: OrganizationMembersTable;
  organization_invites: OrganizationInvitesTable;
  organization_token_ledger: OrganizationTokenLedgerTable;
  networks: NetworksTable;
  stations: StationsTable;
  station_state_changes: StationStateChangesTable;
  feeds: FeedsTable;
  demo_requests: DemoRequestsTable;
  ntrip_accounts: NtripAccountsTable;
  access_grants: AccessGrantsTable;
  ntrip_sessions: NtripSessionsTable;
  ntrip_auth_epoch: NtripAuthEpochTable;
  archive_hours: ArchiveHoursTable;
}
