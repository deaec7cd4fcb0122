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

/** Natural Earth 1:50m country shapes (world-atlas), loaded as a separate chunk with the map. */
export async function offlineBasemapStyle(dark: boolean): Promise<StyleSpecification> {
  const topology = (await import('world-atlas/countries-50m.json')).default as unknown as Topology<{
    countries: GeometryCollection;
  }>;
  const countries = feature(topology, topology.objects.countries);
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
