import type { Feature, FeatureCollection, MultiPolygon, Polygon, Position } from 'geojson';
import type { StyleSpecification } from 'maplibre-gl';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

/** Production tiles when configured; otherwise the bundled world basemap, which needs no network at all. */
export const MAP_STYLE_URL: string = import.meta.env.VITE_MAP_STYLE_URL ?? '';

const configuredRadius = Number(import.meta.env.VITE_COVERAGE_RADIUS_KM ?? 30);
export const DEFAULT_RADIUS_KM = Number.isFinite(configuredRadius) && configuredRadius > 0 ? configuredRadius : 30;

export const BASEMAP_COLORS = {
  dark: { water: '#0a0f14', land: '#18202a', border: '#334152' },
  light: { water: '#d6e4ee', land: '#f7f7f4', border: '#aab4bf' },
} as const;

/** Web Mercator cannot show the poles; Antarctica's rings run to -90. */
const clampLat = ([lon = 0, lat = 0]: Position): Position => [lon, Math.max(-85, Math.min(85, lat))];

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
  return ring.map((point) => {
    const [lon = 0, lat = 0] = clampLat(point);
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
  return polygon.map((ring, index) => {
    const unwrapped = unwrap(ring);
    const clockwise = signedArea(unwrapped) > 0;
    return clockwise === (index === 0) ? unwrapped.reverse() : unwrapped;
  });
}

function toMapLibreWinding(countries: FeatureCollection): FeatureCollection {
  return {
    ...countries,
    features: countries.features.map((f): Feature => {
      const g = f.geometry;
      if (g.type === 'Polygon') return { ...f, geometry: { ...g, coordinates: rewind(g.coordinates) } as Polygon };
      if (g.type === 'MultiPolygon') {
        return { ...f, geometry: { ...g, coordinates: g.coordinates.map(rewind) } as MultiPolygon };
      }
      return f;
    }),
  };
}

/** Natural Earth 1:50m country shapes (world-atlas), loaded as a separate chunk with the map. */
export async function offlineBasemapStyle(dark: boolean): Promise<StyleSpecification> {
  const topology = (await import('world-atlas/countries-50m.json')).default as unknown as Topology<{
    countries: GeometryCollection;
  }>;
  const countries = toMapLibreWinding(feature(topology, topology.objects.countries));
  const borders = mesh(topology, topology.objects.countries, (a, b) => a !== b);
  const colors = dark ? BASEMAP_COLORS.dark : BASEMAP_COLORS.light;
  return {
    version: 8,
    sources: {
      countries: { type: 'geojson', data: countries },
      borders: { type: 'geojson', data: borders },
    },
    layers: [
      { id: 'water', type: 'background', paint: { 'background-color': colors.water } },
      { id: 'land', type: 'fill', source: 'countries', paint: { 'fill-color': colors.land } },
      { id: 'borders', type: 'line', source: 'borders', paint: { 'line-color': colors.border, 'line-width': 0.7 } },
    ],
  };
}
