import { z } from 'zod';
import { pageQueryFields, pageSchema } from './paging.ts';

/**
 * NTRIP accounts (the credentials a rover logs in to the caster with), token activation (spec §3, §7
 * `POST /tokens`), the connection log of an account and the admin view. Shared by the API routes and the SPA.
 * Field design: docs/adr/0008-ntrip-accounts.md.
 */

const uuid = z.uuid();
const isoDateTime = z.iso.datetime({ offset: true });

/** Error codes of these calls, beyond the shared ones. */
export const ntripAccountErrorCodes = [
  /** 402: the balance does not cover price per day × days; nothing was spent or granted. */
  'insufficient_tokens',
  /** 409: the network is retired or is not sold by tokens (price 0). */
  'network_not_activatable',
  /** 409: the caller already has the most NTRIP accounts a user may have. */
  'account_limit_reached',
] as const;
export type NtripAccountErrorCode = (typeof ntripAccountErrorCodes)[number];

export const NTRIP_LABEL_MAX = 64;
/** How many accounts (not deleted) one user may have. */
export const MAX_NTRIP_ACCOUNTS_PER_USER = 50;
export const MAX_ACTIVATION_DAYS = 365;
/**
 * Bounds of an account's concurrent rover connections (admins set it; new accounts get 1). The database allows up
 * to 1000; 100 keeps a typo from turning one account into a fleet's worth of streams.
 */
export const MIN_MAX_CONNECTIONS = 1;
export const MAX_MAX_CONNECTIONS = 100;
export const MAX_SESSION_PAGE = 100;
export const DEFAULT_SESSION_PAGE = 20;
/** A network's automatic nearest-station mountpoint: `{SLUG in upper case}_NEAR`. */
export const NEAR_MOUNTPOINT_SUFFIX = '_NEAR';

export function nearMountpoint(networkSlug: string): string {
  return `${networkSlug.toUpperCase()}${NEAR_MOUNTPOINT_SUFFIX}`;
}

/**
 * What an account's rovers get (issue 36, docs/adr/0088-rtcm-profiles-in-the-caster.md): `as-sent` relays the station's
 * frames byte for byte; `msm4` re-encodes its MSM observations as MSM4; `legacy` as GPS 1004 and GLONASS 1012.
 */
export const rtcmProfiles = ['as-sent', 'msm4', 'legacy'] as const;
export const rtcmProfileSchema = z.enum(rtcmProfiles);
export type RtcmProfile = z.infer<typeof rtcmProfileSchema>;
export const DEFAULT_RTCM_PROFILE: RtcmProfile = 'as-sent';

/** Constellations a rover can be limited to, in the order the SPA lists them. */
export const profileConstellations = ['GPS', 'GLO', 'GAL', 'BDS', 'QZS', 'IRN', 'SBAS'] as const;
export const profileConstellationSchema = z.enum(profileConstellations);
export type ProfileConstellation = z.infer<typeof profileConstellationSchema>;
/** At least one, each once; null: every constellation the station sends. */
export const constellationsSchema = z
  .array(profileConstellationSchema)
  .min(1)
  .refine((list) => new Set(list).size === list.length, 'each constellation at most once')
  .nullable();

/**
 * Mountpoint suffixes that choose a profile for clients that can change nothing but the mountpoint (a tractor
 * display picking from a list): `{MOUNTPOINT}_MSM4`, `{NETWORK}_NEAR_LEGACY`. Letters, digits and `_` only, so every
 * NTRIP client and the sourcetable take them; the account's constellations still apply.
 */
export const PROFILE_MOUNTPOINT_SUFFIXES = { msm4: '_MSM4', legacy: '_LEGACY' } as const satisfies Partial<
  Record<RtcmProfile, string>
>;

/** Price of a token activation: the network's tokens per day times the days (spec §3). */
export function activationPrice(tokenPricePerDay: number, days: number): number {
  return tokenPricePerDay * days;
}

export const grantSourceSchema = z.enum(['subscription', 'tokens', 'manual']);
export type GrantSource = z.infer<typeof grantSourceSchema>;

/** A grant as the owner sees it: which network, from when until when, and why. */
export const accountGrantSchema = z.object({
  id: uuid,
  networkId: uuid,
  networkSlug: z.string(),
  networkName: z.string(),
  validFrom: isoDateTime,
  validUntil: isoDateTime,
  source: grantSourceSchema,
  /** True when the grant covers every account of the owner (a subscription), not only this one. */
  allAccounts: z.boolean(),
});
export type AccountGrant = z.infer<typeof accountGrantSchema>;

/**
 * `active`: enabled and at least one grant covers now; `no_access`: enabled but nothing to use now;
 * `disabled`: switched off by its owner or an admin.
 */
export const ntripAccountStatusSchema = z.enum(['active', 'no_access', 'disabled']);
export type NtripAccountStatus = z.infer<typeof ntripAccountStatusSchema>;

export const ntripAccountSchema = z.object({
  id: uuid,
  label: z.string(),
  username: z.string(),
  enabled: z.boolean(),
  status: ntripAccountStatusSchema,
  maxConnections: z.number().int(),
  /** What its rovers get (issue 36); a mountpoint suffix overrides it per connection. */
  rtcmProfile: rtcmProfileSchema,
  /** The constellations its rovers get; null: all the station sends. */
  constellations: z.array(profileConstellationSchema).nullable(),
  /** Grants that have not ended: current ones and those starting later (an extension), by end date. */
  grants: z.array(accountGrantSchema),
  /** Rovers logged in with this account right now. */
  connectedNow: z.number().int(),
  /** End of the last logged session; null when it never connected. */
  lastSeenAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
  /**
   * Only on an organisation's account: whose it is, the member whose rover uses it (the caster lets it in only
   * while they are a member) and whether the caller may change it and spend the organisation's tokens on it.
   */
  organization: z
    .object({
      id: uuid,
      name: z.string(),
      holderUserId: uuid,
      holderEmail: z.string().nullable(),
      canManage: z.boolean(),
      /** The caller may renew its password: a manager, or the member who holds it (docs/adr/0026). */
      canRenewPassword: z.boolean(),
    })
    .optional(),
});
export type NtripAccount = z.infer<typeof ntripAccountSchema>;

export const ntripAccountListSchema = z.object({ items: z.array(ntripAccountSchema) });
export type NtripAccountList = z.infer<typeof ntripAccountListSchema>;

export const ntripLabelSchema = z.string().trim().min(1).max(NTRIP_LABEL_MAX);

export const createNtripAccountBodySchema = z.object({ label: ntripLabelSchema });
export type CreateNtripAccountBody = z.input<typeof createNtripAccountBodySchema>;

/** An organisation's account, for the member `holderId` (the caller when absent) to use. */
export const createOrganizationNtripAccountBodySchema = z.object({
  label: ntripLabelSchema,
  holderId: uuid.optional(),
});
export type CreateOrganizationNtripAccountBody = z.input<typeof createOrganizationNtripAccountBodySchema>;

export const updateNtripAccountBodySchema = z
  .object({
    label: ntripLabelSchema.optional(),
    enabled: z.boolean().optional(),
    rtcmProfile: rtcmProfileSchema.optional(),
    constellations: constellationsSchema.optional(),
  })
  .refine(
    (b) =>
      b.label !== undefined || b.enabled !== undefined || b.rtcmProfile !== undefined || b.constellations !== undefined,
    'label, enabled, rtcmProfile or constellations is required',
  );
export type UpdateNtripAccountBody = z.input<typeof updateNtripAccountBodySchema>;

/** Answer of create and of password regeneration: the only time the password leaves the server. */
export const ntripAccountWithPasswordSchema = z.object({ account: ntripAccountSchema, password: z.string() });
export type NtripAccountWithPassword = z.infer<typeof ntripAccountWithPasswordSchema>;

export const ntripAccountParamsSchema = z.object({ id: uuid });

/** A mountpoint the account may use now; per network the nearest-station mountpoint comes first. */
export const accountMountpointSchema = z.object({
  mountpoint: z.string(),
  kind: z.enum(['near', 'station']),
  networkSlug: z.string(),
  networkName: z.string(),
  /** The station's identifier (usually its place); empty for the nearest-station mountpoint. */
  identifier: z.string(),
  online: z.boolean(),
  /** The station's position (degrees), for sorting by distance; null for the nearest-station mountpoint. */
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
});
export type AccountMountpoint = z.infer<typeof accountMountpointSchema>;
export const accountMountpointListSchema = z.object({ items: z.array(accountMountpointSchema) });
export type AccountMountpointList = z.infer<typeof accountMountpointListSchema>;

/** Spec §3 token activation, body of `POST /tokens`. */
export const tokenActivationBodySchema = z.object({
  accountId: uuid,
  feedNetworkId: uuid,
  days: z.number().int().min(1).max(MAX_ACTIVATION_DAYS),
});
export type TokenActivationBody = z.infer<typeof tokenActivationBodySchema>;

export const tokenActivationSchema = z.object({
  grant: accountGrantSchema,
  tokensSpent: z.number().int(),
  /** The balance after the spend. */
  tokenAmount: z.number().int(),
});
export type TokenActivation = z.infer<typeof tokenActivationSchema>;

/** The 402 answer when the balance is too low. */
export const insufficientTokensErrorSchema = z.object({
  code: z.literal('insufficient_tokens'),
  message: z.string(),
  needed: z.number().int(),
  balance: z.number().int(),
});

export const sessionEndReasonSchema = z.enum([
  'client_closed',
  'slow_client',
  'idle',
  'source_gone',
  'shutdown',
  'error',
  'access_revoked',
]);
export type SessionEndReason = z.infer<typeof sessionEndReasonSchema>;

/** One rover connection of an account (the connection log). */
export const ntripSessionSchema = z.object({
  id: z.string(),
  mountpoint: z.string(),
  remoteAddress: z.string(),
  startedAt: isoDateTime,
  endedAt: isoDateTime.nullable(),
  durationSeconds: z.number().int(),
  bytesSent: z.number().int(),
  endReason: z.string().nullable(),
  /** Last position the rover reported (GGA); null when it sent none. */
  lastPosition: z.object({ latitude: z.number(), longitude: z.number() }).nullable(),
  /**
   * What the session kept of its live view (issue 17): the client's name, the station that served it (for the
   * nearest-station mountpoint, the one chosen last), its distance from the last GGA in km, and the shares (0–1) of
   * the reported time in RTK fixed and float. Null for sessions logged before these were kept, or without GGA.
   */
  userAgent: z.string().nullable().default(null),
  servedStation: z.string().nullable().default(null),
  distanceKm: z.number().nullable().default(null),
  fixedShare: z.number().nullable().default(null),
  floatShare: z.number().nullable().default(null),
  /** The RTCM profile it was served with (issue 36); null for sessions logged before profiles existed. */
  rtcmProfile: rtcmProfileSchema.nullable().default(null),
});
export type NtripSession = z.infer<typeof ntripSessionSchema>;

export const sessionPageQuerySchema = z.object(
  pageQueryFields({ defaultLimit: DEFAULT_SESSION_PAGE, maxLimit: MAX_SESSION_PAGE }),
);
export type SessionPageQuery = z.input<typeof sessionPageQuerySchema>;

export const ntripSessionPageSchema = pageSchema(ntripSessionSchema);
export type NtripSessionPage = z.infer<typeof ntripSessionPageSchema>;

/**
 * Column order of `GET /ntrip-accounts/:id/sessions.csv`. The session telemetry (issue 17) comes after the original
 * columns so that spreadsheets built on the earlier export keep their references; empty where the rover sent no GGA.
 */
export const SESSION_CSV_COLUMNS = [
  'started_at',
  'ended_at',
  'duration_s',
  'mountpoint',
  'bytes_sent',
  'end_reason',
  'last_latitude',
  'last_longitude',
  'remote_address',
  'client',
  'served_station',
  'distance_km',
  'fixed_share',
  'float_share',
] as const;

// --- admin ---

export const adminNtripAccountSchema = ntripAccountSchema.extend({
  ownerUserId: uuid,
  ownerEmail: z.string().nullable(),
});
export type AdminNtripAccount = z.infer<typeof adminNtripAccountSchema>;

export const adminNtripAccountQuerySchema = sessionPageQuerySchema.extend({
  search: z.string().trim().max(200).optional(),
});
export type AdminNtripAccountQuery = z.input<typeof adminNtripAccountQuerySchema>;

export const adminNtripAccountPageSchema = pageSchema(adminNtripAccountSchema);
export type AdminNtripAccountPage = z.infer<typeof adminNtripAccountPageSchema>;

export const adminUpdateNtripAccountBodySchema = z.object({ enabled: z.boolean() });
export type AdminUpdateNtripAccountBody = z.infer<typeof adminUpdateNtripAccountBodySchema>;

/** Body of `PUT /admin/ntrip-accounts/:id/max-connections`. */
export const adminMaxConnectionsBodySchema = z.object({
  maxConnections: z.number().int().min(MIN_MAX_CONNECTIONS).max(MAX_MAX_CONNECTIONS),
});
export type AdminMaxConnectionsBody = z.infer<typeof adminMaxConnectionsBodySchema>;

/** A support case: access to a network for some days, without spending tokens. */
export const manualGrantBodySchema = z.object({
  networkId: uuid,
  days: z.number().int().min(1).max(MAX_ACTIVATION_DAYS),
});
export type ManualGrantBody = z.infer<typeof manualGrantBodySchema>;

/** Body of `POST /admin/ntrip-accounts`: an account made by an admin for a customer (issue 20). */
export const adminCreateNtripAccountBodySchema = z.object({ ownerUserId: uuid, label: ntripLabelSchema });
export type AdminCreateNtripAccountBody = z.input<typeof adminCreateNtripAccountBodySchema>;
