import type { Feature, FeatureCollection, LineString, MultiLineString, MultiPolygon, Position } from 'geojson';
import { merge, mesh } from 'topojson-client';
import type { GeometryCollection, MultiPolygon as MultiPolygonObject, Polygon, Topology } from 'topojson-specification';

/**
 * The offline basemap, made when the SPA is built (vite.config.ts) from world-atlas's Natural Earth 1:110m
 * countries: the land as one shape and the borders between countries as lines, coordinates rounded to 0.01°
 * (about a kilometre, finer than the 1:110m shapes themselves). About 40 KiB gzip, where the 1:50m countries
 * converted in the browser were 243 KiB and seconds of main-thread work. MapLibre fetches and parses it in its
 * worker. Pure (no DOM, no import.meta): vite.config.ts imports it.
 */
export type BasemapKind = 'land' | 'border';

const DECIMALS = 100;

/** Web Mercator cannot show the poles; Antarctica's rings run to -90. */
const clampLat = ([lon = 0, lat = 0]: Position): Position => [lon, Math.max(-85, Math.min(85, lat))];

const rounded = (value: number) => Math.round(value * DECIMALS) / DECIMALS;

/** Rounds every point and drops the ones that fall on their predecessor. */
function quantise(line: Position[]): Position[] {
  const out: Position[] = [];
  for (const point of line) {
    const [lon = 0, lat = 0] = clampLat(point);
    const next: Position = [rounded(lon), rounded(lat)];
    const last = out[out.length - 1];
    if (!last || last[0] !== next[0] || last[1] !== next[1]) out.push(next);
  }
  return out;
}

function signedArea(ring: Position[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [x1 = 0, y1 = 0] = ring[j] ?? [];
    const [x2 = 0, y2 = 0] = ring[i] ?? [];
    sum += (x2 - x1) * (y2 + y1);
  }
  return sum;
}

/**
 * A ring that crosses the antimeridian jumps from 180 to -180 and, drawn flat, smears a band of land across the
 * whole map (Russia's far east does this). Unwrapped, it runs past 180 and MapLibre draws it on the next world copy.
 */
function unwrap(ring: Position[]): Position[] {
  let shift = 0;
  let previous: number | undefined;
  return ring.map(([lon = 0, lat = 0]) => {
    if (previous !== undefined) {
      const delta = lon + shift - previous;
      if (delta > 180) shift -= 360;
      else if (delta < -180) shift += 360;
    }
    previous = lon + shift;
    return [lon + shift, lat];
  });
}

/** Exterior rings counter-clockwise and holes clockwise, as GeoJSON has it (world-atlas winds the d3 way). */
function rewind(polygon: Position[][]): Position[][] {
  return polygon
    .map((ring) => unwrap(quantise(ring)))
    .filter((ring) => ring.length >= 4)
    .map((ring, index) => {
      const clockwise = signedArea(ring) > 0;
      return clockwise === (index === 0) ? ring.reverse() : ring;
    });
}

export function buildBasemap(
  topology: Topology<{ countries: GeometryCollection }>,
): FeatureCollection<MultiPolygon | MultiLineString, { kind: BasemapKind }> {
  const land = merge(topology, topology.objects.countries.geometries as Array<Polygon | MultiPolygonObject>);
  const borders = mesh(topology, topology.objects.countries, (a, b) => a !== b) as MultiLineString | LineString;
  const lines = borders.type === 'LineString' ? [borders.coordinates] : borders.coordinates;
  const landFeature: Feature<MultiPolygon, { kind: BasemapKind }> = {
    type: 'Feature',
    properties: { kind: 'land' },
    geometry: {
      type: 'MultiPolygon',
      coordinates: land.coordinates.map(rewind).filter((polygon) => polygon.length > 0),
    },
  };
  const borderFeature: Feature<MultiLineString, { kind: BasemapKind }> = {
    type: 'Feature',
    properties: { kind: 'border' },
    geometry: { type: 'MultiLineString', coordinates: lines.map(quantise).filter((line) => line.length >= 2) },
  };
  return { type: 'FeatureCollection', features: [landFeature, borderFeature] };
}
