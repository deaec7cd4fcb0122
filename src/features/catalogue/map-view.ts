import type { StationMarker } from '@portal/contract';

/**
 * The coverage map's view without a map library (CoverageView's first picture, before MapLibre runs): Web Mercator
 * with 512 px tiles and MapLibre's fitBounds and clustering rules, so the picture MapLibre then takes over from shows
 * the same place and the same clusters. Pure: no DOM.
 */

export const TILE_SIZE = 512;
/** Europe, where the networks are, until the stations tell the map where to look. */
export const INITIAL_VIEW = { center: [10, 53] as [number, number], zoom: 3.2 };
/** Past this zoom every station stands alone; below it nearby stations merge into a counted cluster. */
export const CLUSTER_MAX_ZOOM = 8;
export const CLUSTER_RADIUS_PX = 48;
export const FIT_PADDING_PX = 48;
export const FIT_MAX_ZOOM = 8;
/** Metres per pixel at zoom 0 on the equator (Web Mercator, 512 px tiles as MapLibre uses). */
export const METRES_PER_PIXEL_Z0 = 78271.517;
const MAX_LAT = 85.051129;

export interface MapView {
  center: [number, number];
  zoom: number;
}

/** A point's place in the world at zoom 0, in pixels (0…512 both ways). */
export function project(lon: number, lat: number): [number, number] {
  const clamped = Math.max(-MAX_LAT, Math.min(MAX_LAT, lat));
  const sin = Math.sin((clamped * Math.PI) / 180);
  return [((lon + 180) / 360) * TILE_SIZE, (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * TILE_SIZE];
}

export function unproject(x: number, y: number): [number, number] {
  const lon = (x / TILE_SIZE) * 360 - 180;
  const n = Math.PI - (2 * Math.PI * y) / TILE_SIZE;
  return [lon, (180 / Math.PI) * Math.atan(Math.sinh(n))];
}

/** Where a longitude/latitude lands in a box of `width`×`height` pixels showing `view`. */
export function toScreen(view: MapView, width: number, height: number): (lon: number, lat: number) => [number, number] {
  const scale = 2 ** view.zoom;
  const [cx, cy] = project(view.center[0], view.center[1]);
  return (lon, lat) => {
    const [x, y] = project(lon, lat);
    return [(x - cx) * scale + width / 2, (y - cy) * scale + height / 2];
  };
}

/** MapLibre's fitBounds(bounds, { padding: 48, maxZoom: 8 }) of the stations; the initial view without any. */
export function fitView(markers: StationMarker[], width: number, height: number): MapView {
  if (markers.length === 0) return INITIAL_VIEW;
  let [minX, minY, maxX, maxY] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, -1, -1];
  for (const m of markers) {
    const [x, y] = project(m.longitude, m.latitude);
    minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
  }
  const scaleX = Math.max(1, width - 2 * FIT_PADDING_PX) / (maxX - minX);
  const scaleY = Math.max(1, height - 2 * FIT_PADDING_PX) / (maxY - minY);
  const zoom = Math.min(Math.log2(Math.min(scaleX, scaleY)), FIT_MAX_ZOOM);
  return { center: unproject((minX + maxX) / 2, (minY + maxY) / 2), zoom: Math.max(0, zoom) };
}

export type MapItem =
  | { kind: 'station'; marker: StationMarker; lon: number; lat: number }
  | { kind: 'cluster'; count: number; offline: number; lon: number; lat: number };

/**
 * Stations within 48 px of each other at the view's whole zoom merge into one cluster at their mean position, as
 * MapLibre's clustered GeoJSON source does; from zoom 9 on every station stands alone. A grid of the radius's size
 * keeps it linear in the number of stations.
 */
export function clusterStations(markers: StationMarker[], zoom: number): MapItem[] {
  const whole = Math.floor(zoom);
  if (whole > CLUSTER_MAX_ZOOM) {
    return markers.map((marker) => ({ kind: 'station', marker, lon: marker.longitude, lat: marker.latitude }));
  }
  const scale = 2 ** whole;
  const points = markers.map((marker) => {
    const [x, y] = project(marker.longitude, marker.latitude);
    return { marker, x: x * scale, y: y * scale, taken: false };
  });
  const cell = (v: number) => Math.floor(v / CLUSTER_RADIUS_PX);
  const grid = new Map<string, typeof points>();
  for (const p of points) {
    const key = `${cell(p.x)},${cell(p.y)}`;
    const bucket = grid.get(key);
    if (bucket) bucket.push(p);
    else grid.set(key, [p]);
  }
  const items: MapItem[] = [];
  for (const p of points) {
    if (p.taken) continue;
    p.taken = true;
    const members = [p];
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (const q of grid.get(`${cell(p.x) + dx},${cell(p.y) + dy}`) ?? []) {
          if (!q.taken && Math.hypot(q.x - p.x, q.y - p.y) <= CLUSTER_RADIUS_PX) {
            q.taken = true;
            members.push(q);
          }
        }
      }
    }
    if (members.length === 1) {
      items.push({ kind: 'station', marker: p.marker, lon: p.marker.longitude, lat: p.marker.latitude });
      continue;
    }
    const x = members.reduce((sum, m) => sum + m.x, 0) / members.length / scale;
    const y = members.reduce((sum, m) => sum + m.y, 0) / members.length / scale;
    const [lon, lat] = unproject(x, y);
    const offline = members.filter((m) => m.marker.status !== 'online').length;
    items.push({ kind: 'cluster', count: members.length, offline, lon, lat });
  }
  return items;
}

/** A cluster's state, which its colour shows: all its stations online, some offline, or all offline. */
export function clusterState(count: number, offline: number): 'online' | 'partial' | 'offline' {
  if (offline <= 0) return 'online';
  return offline >= count ? 'offline' : 'partial';
}

/** MapLibre's point_count_abbreviated. */
export function abbreviatedCount(count: number): string {
  if (count >= 10_000) return `${Math.round(count / 1000)}k`;
  if (count >= 1000) return `${Math.round(count / 100) / 10}k`;
  return String(count);
}

/** A cluster's diameter in pixels by its count, as the MapLibre markers have it. */
export function clusterSize(count: number): number {
  return count < 10 ? 30 : count < 100 ? 38 : count < 1000 ? 46 : 54;
}

/** Pixels of `radiusKm` at a latitude and zoom. */
export function radiusPixels(radiusKm: number, lat: number, zoom: number): number {
  return ((radiusKm * 1000) / (METRES_PER_PIXEL_Z0 * Math.cos((lat * Math.PI) / 180))) * 2 ** zoom;
}
