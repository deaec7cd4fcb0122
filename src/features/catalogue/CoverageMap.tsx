import 'maplibre-gl/dist/maplibre-gl.css';
import './coverage-map.css';
import type { StationMarker } from '@portal/contract';
import type { FeatureCollection, Point } from 'geojson';
import {
  type ExpressionSpecification,
  type GeoJSONSource,
  type LngLatBoundsLike,
  Map as MapLibreMap,
  Marker,
  NavigationControl,
  Popup,
  setWorkerUrl,
} from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { BASEMAP_COLORS, MAP_STYLE_URL, offlineBasemapStyle } from './basemap';
import type { MapAction } from './CoveragePreview';
import type { CatalogueScope } from './catalogue.api';
import {
  CLUSTER_MAX_ZOOM,
  CLUSTER_RADIUS_PX,
  clusterState,
  FIT_MAX_ZOOM,
  FIT_PADDING_PX,
  INITIAL_VIEW,
  METRES_PER_PIXEL_Z0,
} from './map-view';
import { StationPopup } from './StationPopup';

// The worker is a file of its own in MapLibre 6; the bundler only ships it when it is named explicitly.
setWorkerUrl(workerUrl);

type StationProps = { id: string; mountpoint: string; status: string; k: number };

function toGeoJson(markers: StationMarker[]): FeatureCollection<Point, StationProps> {
  return {
    type: 'FeatureCollection',
    features: markers.map((m) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [m.longitude, m.latitude] },
      // k turns metres into pixels at zoom 0 for this latitude; the radius expression scales it by 2^zoom.
      properties: {
        id: m.id,
        mountpoint: m.mountpoint,
        status: m.status,
        k: 1 / (METRES_PER_PIXEL_Z0 * Math.cos((m.latitude * Math.PI) / 180)),
      },
    })),
  };
}

function radiusExpression(radiusKm: number) {
  const metres = radiusKm * 1000;
  return [
    'interpolate',
    ['exponential', 2],
    ['zoom'],
    0,
    ['*', ['get', 'k'], metres],
    22,
    ['*', ['get', 'k'], metres * 2 ** 22],
  ] as ExpressionSpecification;
}

function boundsOf(markers: StationMarker[]): LngLatBoundsLike | undefined {
  if (markers.length === 0) return undefined;
  let [minLon, minLat, maxLon, maxLat] = [180, 90, -180, -90];
  for (const m of markers) {
    minLon = Math.min(minLon, m.longitude);
    maxLon = Math.max(maxLon, m.longitude);
    minLat = Math.min(minLat, m.latitude);
    maxLat = Math.max(maxLat, m.latitude);
  }
  return [minLon, minLat, maxLon, maxLat];
}

/**
 * Stations on a MapLibre map: counted clusters while zoomed out, one dot per station when zoomed in, the RTK
 * coverage radius around every station, and a popup with the station's details. Clusters and dots are HTML
 * markers (buttons), so they need no font files, work offline and can be reached with the keyboard. It opens at
 * the view of the picture it replaces (CoveragePreview), does what the visitor asked there (`action`) and says
 * when it is drawn (`onReady`, also when it cannot be).
 */
export function CoverageMap({
  markers,
  scope,
  radiusKm,
  dark,
  highlightOffline = false,
  fitKey,
  action,
  onReady,
}: {
  markers: StationMarker[];
  /** The view fits the stations again whenever this changes (the network filter). */
  fitKey: string;
  scope: CatalogueScope;
  /** 0 hides the coverage circles. */
  radiusKm: number;
  dark: boolean;
  /** Admin map: offline stations stand out and are drawn above the others. */
  highlightOffline?: boolean;
  action: MapAction;
  onReady: () => void;
}) {
  const { t } = useTranslation('catalogue');
  const container = useRef<HTMLElement>(null);
  const mapRef = useRef<MapLibreMap | null>(null);
  const htmlMarkers = useRef(new Map<string, Marker>());
  const popupRef = useRef<Popup | null>(null);
  const fittedKey = useRef<string | undefined>(undefined);
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState(false);
  const [selected, setSelected] = useState<{ id: string; node: HTMLDivElement } | null>(null);
  const openPopupRef = useRef<(id: string, lngLat: [number, number]) => void>(() => {});
  const latest = useRef({ markers, radiusKm, highlightOffline, dark, onReady });
  latest.current = { markers, radiusKm, highlightOffline, dark, onReady };

  useEffect(() => {
    const node = container.current;
    if (!node) return;
    let disposed = false;
    let map: MapLibreMap | undefined;
    const markerStore = htmlMarkers.current;

    const openPopup = (id: string, lngLat: [number, number]) => {
      popupRef.current?.remove();
      const content = document.createElement('div');
      const popup = new Popup({ offset: 12, maxWidth: '320px', focusAfterOpen: false })
        .setLngLat(lngLat)
        .setDOMContent(content);
      popup.on('close', () => setSelected((s) => (s?.node === content ? null : s)));
      if (map) {
        popup.addTo(map);
        // Room above the station for the popup, which opens upwards.
        map.easeTo({ center: lngLat, offset: [0, 140], duration: 300 });
      }
      popupRef.current = popup;
      setSelected({ id, node: content });
    };
    openPopupRef.current = openPopup;

    const syncMarkers = () => {
      if (!map?.getSource('stations')) return;
      const bounds = map.getBounds();
      const seen = new Set<string>();
      for (const f of map.querySourceFeatures('stations')) {
        if (f.geometry.type !== 'Point') continue;
        const [lon = 0, lat = 0] = f.geometry.coordinates;
        if (!bounds.contains([lon, lat])) continue;
        const p = f.properties ?? {};
        const key = p.cluster ? `c${p.cluster_id}` : `s${p.id}`;
        if (seen.has(key)) continue;
        seen.add(key);
        if (markerStore.has(key)) continue;
        const el = document.createElement('button');
        el.type = 'button';
        if (p.cluster) {
          const count = Number(p.point_count);
          const size = count < 10 ? 30 : count < 100 ? 38 : count < 1000 ? 46 : 54;
          const offline = Number(p.offline ?? 0);
          const state = clusterState(count, offline);
          el.className = `coverage-cluster is-${state}`;
          el.style.width = `${size}px`;
          el.style.height = `${size}px`;
          el.textContent = String(p.point_count_abbreviated ?? count);
          el.dataset.testid = 'map-cluster';
          el.dataset.state = state;
          el.setAttribute(
            'aria-label',
            offline > 0 ? t('map.clusterLabelOffline', { count, offline }) : t('map.clusterLabel', { count }),
          );
          if (latest.current.highlightOffline && offline > 0) {
            el.classList.add('has-offline');
            const badge = document.createElement('span');
            badge.className = 'coverage-cluster-offline';
            badge.textContent = String(offline);
            el.append(badge);
          }
          el.addEventListener('click', async () => {
            const source = map?.getSource('stations') as GeoJSONSource | undefined;
            const zoom = await source?.getClusterExpansionZoom(Number(p.cluster_id));
            map?.easeTo({ center: [lon, lat], zoom: Math.min(zoom ?? CLUSTER_MAX_ZOOM + 1, 14) });
          });
        } else {
          const offline = p.status !== 'online';
          el.className = `coverage-station ${offline ? 'is-offline' : 'is-online'} ${
            offline && latest.current.highlightOffline ? 'is-alert' : ''
          }`;
          el.dataset.testid = 'map-station';
          el.setAttribute('aria-label', `${p.mountpoint} (${t(`status.${offline ? 'offline' : 'online'}`)})`);
          el.addEventListener('click', (event) => {
            event.stopPropagation();
            openPopup(String(p.id), [lon, lat]);
          });
        }
        const marker = new Marker({ element: el }).setLngLat([lon, lat]).addTo(map);
        markerStore.set(key, marker);
      }
      for (const [key, marker] of markerStore) {
        if (!seen.has(key)) {
          marker.remove();
          markerStore.delete(key);
        }
      }
    };

    (async () => {
      const style = MAP_STYLE_URL || (await offlineBasemapStyle(latest.current.dark));
      if (disposed) return;
      let created: MapLibreMap;
      try {
        created = new MapLibreMap({
          container: node,
          style,
          ...INITIAL_VIEW,
          attributionControl: { compact: true, customAttribution: MAP_STYLE_URL ? undefined : 'Natural Earth' },
          dragRotate: false,
        });
      } catch {
        setFailed(true);
        latest.current.onReady();
        return;
      }
      map = created;
      mapRef.current = created;
      created.addControl(new NavigationControl({ showCompass: false }), 'top-right');
      created.on('load', () => {
        const map = created;
        const data = toGeoJson(latest.current.markers);
        map.addSource('stations', {
          type: 'geojson',
          data,
          cluster: true,
          clusterRadius: CLUSTER_RADIUS_PX,
          clusterMaxZoom: CLUSTER_MAX_ZOOM,
          clusterProperties: { offline: ['+', ['case', ['==', ['get', 'status'], 'online'], 0, 1]] },
        });
        map.addSource('coverage', { type: 'geojson', data });
        // MapLibre only tiles a source that a layer uses; this invisible layer makes the clustered source
        // queryable for the HTML markers.
        map.addLayer({
          id: 'stations-index',
          type: 'circle',
          source: 'stations',
          paint: { 'circle-radius': 1, 'circle-opacity': 0, 'circle-stroke-width': 0 },
        });
        map.addLayer({
          id: 'coverage',
          type: 'circle',
          source: 'coverage',
          paint: {
            'circle-radius': radiusExpression(latest.current.radiusKm),
            'circle-color': ['match', ['get', 'status'], 'online', '#22c55e', '#ef4444'],
            'circle-opacity': 0.08,
            'circle-stroke-color': ['match', ['get', 'status'], 'online', '#22c55e', '#ef4444'],
            'circle-stroke-opacity': 0.35,
            'circle-stroke-width': 1,
            'circle-pitch-alignment': 'map',
          },
          layout: { visibility: latest.current.radiusKm > 0 ? 'visible' : 'none' },
        });
        map.on('moveend', syncMarkers);
        map.on('sourcedata', (e) => {
          if (e.sourceId === 'stations' && e.isSourceLoaded) syncMarkers();
        });
        // The clustered tiles can finish after the last moveend and sourcedata events (new data, a fit with no
        // animation); 'idle' comes once everything is rendered, so markers never wait for the next pan.
        map.on('idle', syncMarkers);
        // The picture above it goes once the stations are drawn here too.
        map.once('idle', () => latest.current.onReady());
        setReady(true);
      });
      created.on('error', (e) => {
        if (!created.loaded() && !created.isStyleLoaded() && e.error) {
          setFailed(true);
          latest.current.onReady();
        }
      });
    })();

    return () => {
      disposed = true;
      for (const marker of markerStore.values()) marker.remove();
      markerStore.clear();
      popupRef.current?.remove();
      map?.remove();
      mapRef.current = null;
    };
  }, [t]);

  // New data (a refetch, a filter): markers are rebuilt from the source.
  useEffect(() => {
    const map = mapRef.current;
    if (!ready || !map) return;
    const data = toGeoJson(markers);
    (map.getSource('stations') as GeoJSONSource | undefined)?.setData(data);
    (map.getSource('coverage') as GeoJSONSource | undefined)?.setData(data);
    for (const marker of htmlMarkers.current.values()) marker.remove();
    htmlMarkers.current.clear();
  }, [markers, ready]);

  // The view fits the stations on the first data and when the filter changes, never on a mere refetch.
  useEffect(() => {
    const map = mapRef.current;
    const bounds = boundsOf(latest.current.markers);
    if (!ready || !map || !bounds) return;
    map.fitBounds(bounds, {
      padding: FIT_PADDING_PX,
      maxZoom: FIT_MAX_ZOOM,
      duration: fittedKey.current === undefined ? 0 : 600,
    });
    fittedKey.current = fitKey;
  }, [fitKey, ready]);

  // What the visitor asked of the picture, once, at the view it showed.
  const done = useRef(false);
  useEffect(() => {
    const map = mapRef.current;
    if (!ready || !map || done.current) return;
    done.current = true;
    if (action.kind === 'zoom') map.zoomTo(map.getZoom() + action.delta);
    else if (action.kind === 'cluster') map.easeTo({ center: [action.lon, action.lat], zoom: map.getZoom() + 2 });
    else if (action.kind === 'station') openPopupRef.current(action.id, [action.lon, action.lat]);
  }, [action, ready]);

  useEffect(() => {
    const map = mapRef.current;
    if (!ready || !map?.getLayer('coverage')) return;
    map.setLayoutProperty('coverage', 'visibility', radiusKm > 0 ? 'visible' : 'none');
    if (radiusKm > 0) map.setPaintProperty('coverage', 'circle-radius', radiusExpression(radiusKm));
  }, [radiusKm, ready]);

  useEffect(() => {
    const map = mapRef.current;
    if (!ready || !map || MAP_STYLE_URL) return;
    const colors = dark ? BASEMAP_COLORS.dark : BASEMAP_COLORS.light;
    map.setPaintProperty('water', 'background-color', colors.water);
    map.setPaintProperty('land', 'fill-color', colors.land);
    map.setPaintProperty('borders', 'line-color', colors.border);
  }, [dark, ready]);

  return (
    <div className="absolute inset-0">
      <section ref={container} className="h-full w-full" aria-label={t('map.label')} />
      {failed && (
        <p className="absolute inset-0 flex items-center justify-center bg-panel p-6 text-center text-sm text-muted">
          {t('map.unavailable')}
        </p>
      )}
      {selected && createPortal(<StationPopup scope={scope} id={selected.id} />, selected.node)}
    </div>
  );
}
