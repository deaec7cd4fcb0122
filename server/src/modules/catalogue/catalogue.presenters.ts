import type { Feed, Network, Station, StationMarker } from '@portal/contract';
import { geodeticToEcef } from '@portal/gnss';
import { iso } from '../../shared/iso.ts';
import type { ContentLanguage } from '../../shared/language.ts';
import type {
  FeedWithMountpointRow,
  Jsonified,
  NetworkRow,
  NetworkSummaryRow,
  StationRow,
  StationWithNetworkRow,
} from './catalogue.repo.ts';

/** Every catalogue response is built here, so a new column never reaches a client by accident. */

/** Earth-centred coordinates of a WGS84 position, rounded to the millimetre. */
export function toEcef(latitude: number, longitude: number, heightM: number) {
  const mm = (v: number) => Math.round(v * 1000) / 1000;
  const [x, y, z] = geodeticToEcef(latitude, longitude, heightM);
  return { x: mm(x), y: mm(y), z: mm(z) };
}

/**
 * `language` answers a reader in theirs where the operator wrote the text (empty falls back to the base text);
 * without it, the base texts, as the admin edits them. The translations come along either way.
 */
export function presentNetwork(row: NetworkSummaryRow, language?: ContentLanguage): Network {
  const { min_lon: minLon, min_lat: minLat, max_lon: maxLon, max_lat: maxLat } = row;
  const { center_lon: centerLon, center_lat: centerLat } = row;
  const translations = row.translations ?? {};
  const texts = language === 'nl' ? translations.nl : undefined;
  return {
    id: row.id,
    slug: row.slug,
    name: texts?.name || row.name,
    description: texts?.description || row.description,
    translations,
    operator: row.operator,
    region: texts?.region || row.region,
    status: row.status,
    isPublic: row.is_public,
    tokenPricePerDay: row.token_price_per_day,
    referenceFrame: row.reference_frame ?? null,
    stationCount: row.station_count,
    onlineStationCount: row.online_station_count,
    coverage:
      minLon !== null &&
      minLat !== null &&
      maxLon !== null &&
      maxLat !== null &&
      centerLon !== null &&
      centerLat !== null
        ? { bbox: [minLon, minLat, maxLon, maxLat], center: [centerLon, centerLat] }
        : null,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** A network that was just created has no stations yet, so its summary needs no aggregate query. */
export function summariseNewNetwork(row: NetworkRow): NetworkSummaryRow {
  return {
    ...row,
    station_count: 0,
    online_station_count: 0,
    min_lon: null,
    min_lat: null,
    max_lon: null,
    max_lat: null,
    center_lon: null,
    center_lat: null,
  };
}

export function presentStation(row: StationWithNetworkRow | Jsonified<StationWithNetworkRow>): Station {
  return {
    id: row.id,
    networkId: row.network_id,
    networkSlug: row.network_slug,
    referenceFrame: row.network_reference_frame ?? null,
    mountpoint: row.mountpoint,
    identifier: row.identifier,
    country: row.country,
    latitude: row.latitude,
    longitude: row.longitude,
    heightM: row.height_m,
    ecef: row.height_m === null ? null : toEcef(row.latitude, row.longitude, row.height_m),
    receiver: row.receiver,
    antenna: row.antenna,
    format: row.format,
    formatDetails: row.format_details,
    navSystem: row.nav_system,
    carrier: row.carrier,
    bitrate: row.bitrate,
    status: row.status,
    lastDataAt: row.last_data_at === null ? null : iso(row.last_data_at),
    integrity: {
      state: row.integrity_state,
      reasons: row.integrity_reasons.map((r) => ({ code: r.code, level: r.level, message: r.message, since: r.since })),
      excluded: row.integrity_excluded,
      override: row.integrity_override,
      acknowledgedAt: row.integrity_acknowledged_at === null ? null : iso(row.integrity_acknowledged_at),
    },
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export function presentStationMarker(
  row: Pick<StationRow, 'id' | 'network_id' | 'mountpoint' | 'latitude' | 'longitude' | 'status'>,
): StationMarker {
  return {
    id: row.id,
    networkId: row.network_id,
    mountpoint: row.mountpoint,
    latitude: row.latitude,
    longitude: row.longitude,
    status: row.status,
  };
}

export function presentFeed(row: FeedWithMountpointRow): Feed {
  const { upstream_host: host, upstream_port: port, upstream_mountpoint: mountpoint } = row;
  const version = row.upstream_ntrip_version;
  return {
    id: row.id,
    networkId: row.network_id,
    stationId: row.station_id,
    mountpoint: row.mountpoint,
    kind: row.kind,
    enabled: row.enabled,
    status: row.status,
    lastError: row.last_error,
    hasSourcePassword: row.source_password_hash !== null,
    upstream:
      row.kind === 'pull' && host !== null && port !== null && mountpoint !== null && version !== null
        ? {
            host,
            port,
            mountpoint,
            username: row.upstream_username ?? '',
            ntripVersion: version === 1 ? 1 : 2,
            hasPassword: row.upstream_password_enc !== null,
          }
        : null,
    ownerEmail: row.owner_email,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}
