import { z } from 'zod';
import { pageQueryFields, pageSchema } from './paging.ts';

/**
 * The catalogue: correction networks, their base stations (NTRIP mountpoints) and the feeds that bring each
 * station's RTCM 3 stream into the caster. Shared by the API routes and the SPA's forms and calls.
 */

export const networkStatuses = ['active', 'maintenance', 'retired'] as const;
export const stationStatuses = ['online', 'offline'] as const;
export const stationFormats = ['RTCM 3', 'RTCM 3.0', 'RTCM 3.1', 'RTCM 3.2', 'RTCM 3.3', 'RTCM 3.4'] as const;
/** Sourcetable abbreviations of the constellations, in the order stations list them. */
export const navSystems = ['GPS', 'GLO', 'GAL', 'BDS', 'QZS', 'IRN', 'SBAS'] as const;
export const feedKinds = ['push', 'pull'] as const;
export const feedStatuses = ['idle', 'connecting', 'connected', 'error'] as const;
export type FeedKind = (typeof feedKinds)[number];

/** Error codes of the catalogue calls, beyond the shared ones. */
export const catalogueErrorCodes = [
  'slug_taken',
  'mountpoint_taken',
  'feed_exists',
  'feed_kind_mismatch',
  'network_in_use',
  'owner_not_found',
] as const;
export type CatalogueErrorCode = (typeof catalogueErrorCodes)[number];

export const MOUNTPOINT_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const DEFAULT_COVERAGE_RADIUS_KM = 30;
/** Largest page of full station records; the compact marker view goes up to MAX_MARKER_PAGE. */
export const MAX_STATION_PAGE = 500;
export const MAX_MARKER_PAGE = 10_000;
export const MAX_SOURCETABLE_CHARS = 1_000_000;

const uuid = z.uuid();
const isoDateTime = z.iso.datetime({ offset: true });

/** Text that ends up in a sourcetable field, where ';' separates fields and a line break ends the record. */
const sourcetableText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .regex(/^[^;\r\n]*$/, "must not contain ';' or line breaks");

export const mountpointSchema = z
  .string()
  .trim()
  .regex(MOUNTPOINT_PATTERN, 'letters, digits, _ and - only, at most 64 characters');
export const slugSchema = z
  .string()
  .trim()
  .min(2)
  .max(64)
  .regex(SLUG_PATTERN, 'lower-case letters, digits and single hyphens');
export const countrySchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{3}$/, 'an ISO 3166 alpha-3 code such as NLD');
export const latitudeSchema = z.number().min(-90).max(90);
export const longitudeSchema = z.number().min(-180).max(180);
export const navSystemSchema = z
  .string()
  .trim()
  .toUpperCase()
  .refine(
    (value) => {
      const parts = value.split('+');
      return parts.every((p) => (navSystems as readonly string[]).includes(p)) && new Set(parts).size === parts.length;
    },
    `'+'-separated constellations from ${navSystems.join(', ')}`,
  );

/** [minLon, minLat, maxLon, maxLat]; minLon > maxLon means the box crosses the antimeridian. */
export const bboxSchema = z.tuple([longitudeSchema, latitudeSchema, longitudeSchema, latitudeSchema]);
export type BBox = z.infer<typeof bboxSchema>;

/** `bbox=minLon,minLat,maxLon,maxLat` as a query parameter. */
export const bboxParamSchema = z
  .string()
  .transform((raw) => raw.split(',').map((n) => (n.trim() === '' ? Number.NaN : Number(n))))
  .pipe(bboxSchema)
  .refine((b) => b[1] <= b[3], 'minLat must not exceed maxLat');

// ---------- networks ----------

export const networkCoverageSchema = z.object({
  bbox: bboxSchema,
  center: z.tuple([longitudeSchema, latitudeSchema]),
});

/**
 * A network's texts in a language other than the base one (English: `name`, `description`, `region`; the operator
 * is a name and stays as written): stored per language, and answered in place of the base texts to a reader of that
 * language (Accept-Language); empty means "the base text". The admin's calls answer the base texts with every
 * translation, for editing.
 */
export const networkTextsSchema = z.object({
  name: z.string().trim().max(120),
  description: z.string().trim().max(2000),
  /** Optional: translations stored before regions were translated have none. */
  region: z.string().trim().max(120).optional(),
});
export const networkTranslationsSchema = z.object({ nl: networkTextsSchema.optional() }).strict();
export type NetworkTranslations = z.infer<typeof networkTranslationsSchema>;

/** Frame names, realisations and grids: letters, digits, spaces and . / ( ) + - only (they go into sourcetables). */
const frameText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .regex(/^[\p{L}\p{N} ./()+-]*$/u, 'letters, digits, spaces and . / ( ) + - only');

/**
 * The reference frame a network's corrections are in: the coordinates a rover computes are in it, not in a national
 * grid (RD/NAP is decimetres from ETRS89), so a surveyor needs all four parts.
 */
export const referenceFrameSchema = z.object({
  /** e.g. ETRS89, ITRF. */
  frame: frameText(40).min(2),
  /** e.g. ETRF2000, ITRF2014; empty when the frame has one realisation. */
  realisation: frameText(40),
  /** Epoch of the coordinates as a decimal year, e.g. 2010.5; null: the epoch of observation. */
  epoch: z.number().min(1980).max(2100).nullable(),
  /** The national grid the frame relates to, e.g. RD/NAP; empty when none. */
  nationalGrid: frameText(80),
});
export type ReferenceFrame = z.infer<typeof referenceFrameSchema>;

/** One line for sourcetables, READMEs and cards: "ETRS89 (ETRF2000, epoch 2010.5), related to RD/NAP". */
export function describeReferenceFrame(f: ReferenceFrame): string {
  const details = [f.realisation, f.epoch === null ? '' : `epoch ${f.epoch.toFixed(1)}`].filter(Boolean).join(', ');
  return `${f.frame}${details ? ` (${details})` : ''}${f.nationalGrid ? `, related to ${f.nationalGrid}` : ''}`;
}

export const networkSchema = z.object({
  id: uuid,
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  translations: networkTranslationsSchema,
  operator: z.string(),
  region: z.string(),
  status: z.enum(networkStatuses),
  isPublic: z.boolean(),
  tokenPricePerDay: z.number().int(),
  /** Null until an admin sets it. */
  referenceFrame: referenceFrameSchema.nullable(),
  stationCount: z.number().int(),
  onlineStationCount: z.number().int(),
  /** Derived from the stations; null while the network has none. */
  coverage: networkCoverageSchema.nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type Network = z.infer<typeof networkSchema>;

export const networkListSchema = z.object({ items: z.array(networkSchema) });
export type NetworkList = z.infer<typeof networkListSchema>;

const networkFields = {
  name: z.string().trim().min(2).max(120),
  slug: slugSchema,
  description: z.string().trim().max(2000),
  operator: z.string().trim().max(120),
  region: z.string().trim().max(120),
  status: z.enum(networkStatuses),
  isPublic: z.boolean(),
  tokenPricePerDay: z.number().int().min(0).max(1_000_000),
  translations: networkTranslationsSchema,
  referenceFrame: referenceFrameSchema.nullable(),
};

/** Without a slug the server derives one from the name. */
export const createNetworkBodySchema = z.object({
  ...networkFields,
  slug: networkFields.slug.optional(),
  description: networkFields.description.default(''),
  operator: networkFields.operator.default(''),
  region: networkFields.region.default(''),
  status: networkFields.status.default('active'),
  isPublic: networkFields.isPublic.default(true),
  tokenPricePerDay: networkFields.tokenPricePerDay.default(0),
  translations: networkFields.translations.default({}),
  referenceFrame: networkFields.referenceFrame.default(null),
});
export type CreateNetworkBody = z.input<typeof createNetworkBodySchema>;

export const replaceNetworkBodySchema = createNetworkBodySchema.extend({ slug: networkFields.slug });
export type ReplaceNetworkBody = z.input<typeof replaceNetworkBodySchema>;

export const patchNetworkBodySchema = z.object(networkFields).partial();
export type PatchNetworkBody = z.input<typeof patchNetworkBodySchema>;

export const idParamsSchema = z.object({ id: uuid });
export const networkRefParamsSchema = z.object({ idOrSlug: z.string().trim().min(1).max(64) });

// ---------- stations ----------

export const ecefSchema = z.object({ x: z.number(), y: z.number(), z: z.number() });

// ---------- station integrity (issue 33) ----------

export const integrityStates = ['ok', 'warning', 'failing'] as const;
export type IntegrityState = (typeof integrityStates)[number];
export const integrityCodes = [
  'position_moved',
  'position_mismatch',
  'descriptor_mismatch',
  'constellation_missing',
  'message_missing',
  'late',
  'crc_errors',
  'gap',
] as const;
export type IntegrityCode = (typeof integrityCodes)[number];

export const integrityReasonSchema = z.object({
  code: z.enum(integrityCodes),
  level: z.enum(['warning', 'failing']),
  /** In plain words, from the caster's monitor. */
  message: z.string(),
  since: isoDateTime,
});

export const stationIntegritySchema = z.object({
  /** The worst of the reasons; ok without any. */
  state: z.enum(integrityStates),
  reasons: z.array(integrityReasonSchema),
  /** Out of the nearest-station choice: failing, or failed and not yet good for the network's good period. */
  excluded: z.boolean(),
  /** An admin keeps the station in the nearest-station choice whatever the monitor finds. */
  override: z.boolean(),
  acknowledgedAt: isoDateTime.nullable(),
});
export type StationIntegrity = z.infer<typeof stationIntegritySchema>;

/** An admin's decision on a station's integrity; `resurvey` accepts the position the station sends now. */
export const integrityActionBodySchema = z.object({
  action: z.enum(['acknowledge', 'override', 'clear_override', 'resurvey']),
});
export type IntegrityActionBody = z.infer<typeof integrityActionBodySchema>;

export const networkIntegritySettingsSchema = z.object({
  movedHorizontalM: z.number().gt(0).max(10),
  movedVerticalM: z.number().gt(0).max(10),
  goodPeriodSeconds: z.number().int().min(0).max(86_400),
});
export type NetworkIntegritySettings = z.infer<typeof networkIntegritySettingsSchema>;

export const stationSchema = z.object({
  id: uuid,
  networkId: uuid,
  networkSlug: z.string(),
  /** The network's reference frame: the one the station's corrections are in. */
  referenceFrame: referenceFrameSchema.nullable(),
  mountpoint: z.string(),
  identifier: z.string(),
  country: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  heightM: z.number().nullable(),
  /** WGS84 earth-centred coordinates in metres, derived from the position; null without a height. */
  ecef: ecefSchema.nullable(),
  receiver: z.string(),
  antenna: z.string(),
  format: z.string(),
  formatDetails: z.string(),
  navSystem: z.string(),
  carrier: z.number().int(),
  bitrate: z.number().int(),
  status: z.enum(stationStatuses),
  lastDataAt: isoDateTime.nullable(),
  integrity: stationIntegritySchema,
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type Station = z.infer<typeof stationSchema>;

/** What a map needs to draw and filter thousands of stations; details come from `GET /stations/:id`. */
export const stationMarkerSchema = z.object({
  id: uuid,
  networkId: uuid,
  mountpoint: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  status: z.enum(stationStatuses),
});
export type StationMarker = z.infer<typeof stationMarkerSchema>;

export const stationPageSchema = pageSchema(stationSchema).extend({ view: z.literal('full') });
export type StationPage = z.infer<typeof stationPageSchema>;

export const stationMarkerPageSchema = pageSchema(stationMarkerSchema).extend({ view: z.literal('compact') });
export type StationMarkerPage = z.infer<typeof stationMarkerPageSchema>;

export const stationListResponseSchema = z.discriminatedUnion('view', [stationPageSchema, stationMarkerPageSchema]);

export const stationListQuerySchema = z
  .object({
    /** A network id or slug. */
    network: z.string().trim().min(1).max(64).optional(),
    bbox: bboxParamSchema.optional(),
    status: z.enum(stationStatuses).optional(),
    /** Part of a mountpoint or identifier, case-insensitive. */
    search: z.string().trim().min(1).max(64).optional(),
    view: z.enum(['full', 'compact']).default('full'),
    ...pageQueryFields({ defaultLimit: 100, maxLimit: MAX_MARKER_PAGE }),
  })
  .refine((q) => q.view === 'compact' || q.limit <= MAX_STATION_PAGE, {
    message: `at most ${MAX_STATION_PAGE} full records per page; use view=compact for up to ${MAX_MARKER_PAGE}`,
    path: ['limit'],
  });
export type StationListQuery = z.input<typeof stationListQuerySchema>;

const stationFields = {
  networkId: uuid,
  mountpoint: mountpointSchema,
  identifier: sourcetableText(120),
  country: countrySchema,
  latitude: latitudeSchema,
  longitude: longitudeSchema,
  heightM: z.number().min(-500).max(9000).nullable(),
  receiver: sourcetableText(64),
  antenna: sourcetableText(64),
  format: z.enum(stationFormats),
  formatDetails: sourcetableText(1000),
  navSystem: navSystemSchema,
  carrier: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  bitrate: z.number().int().min(0).max(10_000_000),
};

export const createStationBodySchema = z.object({
  ...stationFields,
  identifier: stationFields.identifier.default(''),
  heightM: stationFields.heightM.default(null),
  receiver: stationFields.receiver.default(''),
  antenna: stationFields.antenna.default(''),
  format: stationFields.format.default('RTCM 3.3'),
  formatDetails: stationFields.formatDetails.default(''),
  navSystem: stationFields.navSystem.default('GPS+GLO+GAL+BDS'),
  carrier: stationFields.carrier.default(2),
  bitrate: stationFields.bitrate.default(0),
});
export type CreateStationBody = z.input<typeof createStationBodySchema>;

export const replaceStationBodySchema = createStationBodySchema;
export type ReplaceStationBody = z.input<typeof replaceStationBodySchema>;

export const patchStationBodySchema = z.object(stationFields).partial();
export type PatchStationBody = z.input<typeof patchStationBodySchema>;

// ---------- feeds ----------

/** Sent on the NTRIP 1 `SOURCE <password> /<mountpoint>` line, so no spaces. */
export const sourcePasswordSchema = z
  .string()
  .min(8)
  .max(128)
  .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces');
export const hostSchema = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .regex(
    /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)*[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$|^\[?[0-9A-Fa-f:.]+\]?$/,
    {
      message: 'a host name or IP address',
    },
  );
const portSchema = z.number().int().min(1).max(65535);
const ntripVersionSchema = z.union([z.literal(1), z.literal(2)]);
const upstreamUsernameSchema = z
  .string()
  .max(128)
  .regex(/^[^:\r\n]*$/, "must not contain ':' or line breaks");
const upstreamPasswordSchema = z
  .string()
  .max(256)
  .regex(/^[^\r\n]*$/, 'must not contain line breaks');

export const feedUpstreamSchema = z.object({
  host: z.string(),
  port: z.number().int(),
  mountpoint: z.string(),
  username: z.string(),
  ntripVersion: ntripVersionSchema,
  /** Whether credentials are stored; the password itself never leaves the server. */
  hasPassword: z.boolean(),
});

export const feedSchema = z.object({
  id: uuid,
  networkId: uuid,
  stationId: uuid,
  mountpoint: z.string(),
  kind: z.enum(feedKinds),
  enabled: z.boolean(),
  status: z.enum(feedStatuses),
  lastError: z.string().nullable(),
  /** Push feeds: the base station authenticates with a source password, stored only as a hash. */
  hasSourcePassword: z.boolean(),
  /** Pull feeds: where our caster fetches the stream. */
  upstream: feedUpstreamSchema.nullable(),
  /** The e-mail of the user who runs the base: they get the station's outage alerts. Null: no owner. */
  ownerEmail: z.string().nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type Feed = z.infer<typeof feedSchema>;

export const feedPageSchema = pageSchema(feedSchema);
export type FeedPage = z.infer<typeof feedPageSchema>;

export const feedListQuerySchema = z.object({
  network: z.string().trim().min(1).max(64).optional(),
  kind: z.enum(feedKinds).optional(),
  enabled: z.enum(['true', 'false']).optional(),
  ...pageQueryFields({ defaultLimit: 100, maxLimit: 1000 }),
});
export type FeedListQuery = z.input<typeof feedListQuerySchema>;

/** The base's owner by the e-mail of their portal account; empty or null: no owner. */
const ownerEmailSchema = z.union([z.literal(''), z.email().max(254)]).nullable();

export const createFeedBodySchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('push'),
    stationId: uuid,
    enabled: z.boolean().default(true),
    ownerEmail: ownerEmailSchema.optional(),
    sourcePassword: sourcePasswordSchema,
  }),
  z.object({
    kind: z.literal('pull'),
    stationId: uuid,
    enabled: z.boolean().default(true),
    ownerEmail: ownerEmailSchema.optional(),
    upstreamHost: hostSchema,
    upstreamPort: portSchema.default(2101),
    upstreamMountpoint: mountpointSchema,
    upstreamUsername: upstreamUsernameSchema.default(''),
    upstreamPassword: upstreamPasswordSchema.default(''),
    upstreamNtripVersion: ntripVersionSchema.default(2),
  }),
]);
export type CreateFeedBody = z.input<typeof createFeedBodySchema>;

/** Fields of the other kind are refused with feed_kind_mismatch; a feed changes kind by being recreated. */
export const patchFeedBodySchema = z
  .object({
    enabled: z.boolean(),
    ownerEmail: ownerEmailSchema,
    sourcePassword: sourcePasswordSchema,
    upstreamHost: hostSchema,
    upstreamPort: portSchema,
    upstreamMountpoint: mountpointSchema,
    upstreamUsername: upstreamUsernameSchema,
    upstreamPassword: upstreamPasswordSchema,
    upstreamNtripVersion: ntripVersionSchema,
  })
  .partial();
export type PatchFeedBody = z.input<typeof patchFeedBodySchema>;

// ---------- sourcetable import ----------

export const importSourcetableBodySchema = z.object({
  text: z.string().min(1).max(MAX_SOURCETABLE_CHARS),
  /** Report what would happen without writing anything. */
  dryRun: z.boolean().default(false),
});
export type ImportSourcetableBody = z.input<typeof importSourcetableBodySchema>;

export const importOutcomes = ['created', 'updated', 'skipped'] as const;

export const importLineSchema = z.object({
  /** 1-based line number in the submitted text. */
  line: z.number().int(),
  mountpoint: z.string().nullable(),
  outcome: z.enum(importOutcomes),
  reason: z.string().optional(),
});
export type ImportLine = z.infer<typeof importLineSchema>;

export const importReportSchema = z.object({
  dryRun: z.boolean(),
  created: z.number().int(),
  updated: z.number().int(),
  skipped: z.number().int(),
  lines: z.array(importLineSchema),
});
export type ImportReport = z.infer<typeof importReportSchema>;
