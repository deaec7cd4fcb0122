import offlineBasemapUrl from 'virtual:offline-basemap';
import type { StyleSpecification } from 'maplibre-gl';

/** The offline basemap's file (GeoJSON), for MapLibre and for the picture shown before it (CoveragePreview). */
export const OFFLINE_BASEMAP_URL: string = offlineBasemapUrl;

/** Production tiles when configured; otherwise the bundled world basemap, which needs no network at all. */
export const MAP_STYLE_URL: string = import.meta.env.VITE_MAP_STYLE_URL ?? '';

const configuredRadius = Number(import.meta.env.VITE_COVERAGE_RADIUS_KM ?? 30);
export const DEFAULT_RADIUS_KM = Number.isFinite(configuredRadius) && configuredRadius > 0 ? configuredRadius : 30;

export const BASEMAP_COLORS = {
  dark: { water: '#0a0f14', land: '#18202a', border: '#334152' },
  light: { water: '#d6e4ee', land: '#f7f7f4', border: '#aab4bf' },
} as const;

/**
 * Natural Earth 1:110m land and borders, made at build time (basemap-geometry.ts) into one fingerprinted file that
 * MapLibre fetches and parses in its worker: nothing of it runs on the main thread or ships as JavaScript.
 */
export async function offlineBasemapStyle(dark: boolean): Promise<StyleSpecification> {
  const colors = dark ? BASEMAP_COLORS.dark : BASEMAP_COLORS.light;
  return {
    version: 8,
    sources: { basemap: { type: 'geojson', data: OFFLINE_BASEMAP_URL } },
    layers: [
      { id: 'water', type: 'background', paint: { 'background-color': colors.water } },
      {
        id: 'land',
        type: 'fill',
        source: 'basemap',
        filter: ['==', ['get', 'kind'], 'land'],
        paint: { 'fill-color': colors.land },
      },
      {
        id: 'borders',
        type: 'line',
        source: 'basemap',
        filter: ['==', ['get', 'kind'], 'border'],
        paint: { 'line-color': colors.border, 'line-width': 0.7 },
      },
    ],
  };
}
