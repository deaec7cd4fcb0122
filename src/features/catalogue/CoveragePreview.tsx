import type { StationMarker } from '@portal/contract';
import type { FeatureCollection, MultiLineString, MultiPolygon, Position } from 'geojson';
import './coverage-map.css';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BASEMAP_COLORS, OFFLINE_BASEMAP_URL } from './basemap';
import {
  abbreviatedCount,
  clusterSize,
  clusterState,
  clusterStations,
  fitView,
  type MapView,
  project,
  radiusPixels,
  toScreen,
} from './map-view';

/** What the visitor did on the picture; the interactive map does it once it has loaded. */
export type MapAction =
  | { kind: 'zoom'; delta: number }
  | { kind: 'cluster'; lon: number; lat: number }
  | { kind: 'station'; id: string; lon: number; lat: number }
  | { kind: 'move' };

type Basemap = FeatureCollection<MultiPolygon | MultiLineString, { kind: 'land' | 'border' }>;

/** SVG path data of rings or lines in zoom-0 world pixels; the view is a transform on the group that holds it. */
function pathData(lines: Position[][]): string {
  let d = '';
  for (const line of lines) {
    line.forEach(([lon = 0, lat = 0], i) => {
      const [x, y] = project(lon, lat);
      d += `${i === 0 ? 'M' : 'L'}${x.toFixed(2)} ${y.toFixed(2)}`;
    });
  }
  return d;
}

let basemapPaths: Promise<{ land: string; borders: string }> | undefined;
/** The offline basemap the interactive map uses too (the browser then has it cached), as two SVG paths. */
function loadBasemapPaths() {
  basemapPaths ??= fetch(OFFLINE_BASEMAP_URL)
    .then((response) => (response.ok ? (response.json() as Promise<Basemap>) : Promise.reject(response.status)))
    .then((basemap) => {
      let land = '';
      let borders = '';
      for (const feature of basemap.features) {
        if (feature.geometry.type === 'MultiPolygon') land += pathData(feature.geometry.coordinates.flat());
        else borders += pathData(feature.geometry.coordinates);
      }
      return { land, borders };
    });
  return basemapPaths;
}

function useBoxSize(ref: React.RefObject<HTMLElement | null>) {
  const [size, setSize] = useState<{ width: number; height: number }>();
  useLayoutEffect(() => {
    const node = ref.current;
    if (!node) return;
    const measure = () => setSize({ width: node.clientWidth, height: node.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(node);
    return () => observer.disconnect();
  }, [ref]);
  return size;
}

/**
 * The coverage map as a picture: the offline basemap as SVG, the stations clustered as MapLibre clusters them, the
 * coverage circles, all at the view MapLibre's fit would choose. It costs a few milliseconds where MapLibre costs
 * seconds of a phone's main thread and WebGL, so the map library loads only when the visitor reaches for the map:
 * a marker, a cluster, the zoom buttons, a drag or the wheel (`onActivate`); MapLibre then opens at the same view
 * and does what was asked.
 */
export function CoveragePreview({
  markers,
  fitKey,
  radiusKm,
  dark,
  highlightOffline,
  busy,
  onActivate,
}: {
  markers: StationMarker[];
  fitKey: string;
  radiusKm: number;
  dark: boolean;
  highlightOffline: boolean;
  /** The interactive map is on its way. */
  busy: boolean;
  onActivate: (action: MapAction) => void;
}) {
  const { t } = useTranslation('catalogue');
  const box = useRef<HTMLElement>(null);
  const size = useBoxSize(box);
  const [paths, setPaths] = useState<{ land: string; borders: string }>();
  const latestMarkers = useRef(markers);
  latestMarkers.current = markers;

  useEffect(() => {
    let active = true;
    loadBasemapPaths().then(
      (loaded) => active && setPaths(loaded),
      () => undefined, // the stations still show on the water colour
    );
    return () => {
      active = false;
    };
  }, []);

  // As the interactive map: the view fits the stations on the first data and when the filter changes, not on a
  // refetch.
  const width = size?.width ?? 0;
  const height = size?.height ?? 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: fitKey stands for the filter; markers are read fresh
  const view = useMemo<MapView | undefined>(
    () => (width && height ? fitView(latestMarkers.current, width, height) : undefined),
    [fitKey, width, height],
  );
  const items = useMemo(() => (view ? clusterStations(markers, view.zoom) : []), [markers, view]);
  const colors = dark ? BASEMAP_COLORS.dark : BASEMAP_COLORS.light;

  const activate = (action: MapAction) => {
    if (!busy) onActivate(action);
  };

  let content: React.ReactNode = null;
  if (view) {
    const place = toScreen(view, width, height);
    const scale = 2 ** view.zoom;
    const [cx, cy] = project(view.center[0], view.center[1]);
    const transform = `translate(${width / 2 - cx * scale} ${height / 2 - cy * scale}) scale(${scale})`;
    content = (
      <>
        <svg width={width} height={height} className="absolute inset-0" aria-hidden="true">
          <rect width={width} height={height} fill={colors.water} />
          {paths && (
            <g transform={transform}>
              <path d={paths.land} fill={colors.land} fillRule="evenodd" />
              <path
                d={paths.borders}
                fill="none"
                stroke={colors.border}
                strokeWidth={0.7}
                vectorEffect="non-scaling-stroke"
              />
            </g>
          )}
          {radiusKm > 0 &&
            markers.map((m) => {
              const [x, y] = place(m.longitude, m.latitude);
              const color = m.status === 'online' ? '#22c55e' : '#ef4444';
              return (
                <circle
                  key={m.id}
                  cx={x}
                  cy={y}
                  r={radiusPixels(radiusKm, m.latitude, view.zoom)}
                  fill={color}
                  fillOpacity={0.08}
                  stroke={color}
                  strokeOpacity={0.35}
                />
              );
            })}
        </svg>
        {items.map((item) => {
          const [x, y] = place(item.lon, item.lat);
          if (x < -60 || y < -60 || x > width + 60 || y > height + 60) return null;
          const position = { left: x, top: y, transform: 'translate(-50%, -50%)' } as const;
          if (item.kind === 'cluster') {
            const flagged = highlightOffline && item.offline > 0;
            const diameter = clusterSize(item.count);
            const state = clusterState(item.count, item.offline);
            return (
              <button
                key={`c${item.lon},${item.lat}`}
                type="button"
                data-testid="map-cluster"
                data-state={state}
                className={`coverage-cluster is-${state} absolute ${flagged ? 'has-offline' : ''}`}
                style={{ ...position, width: diameter, height: diameter }}
                aria-label={
                  item.offline > 0
                    ? t('map.clusterLabelOffline', { count: item.count, offline: item.offline })
                    : t('map.clusterLabel', { count: item.count })
                }
                onClick={() => activate({ kind: 'cluster', lon: item.lon, lat: item.lat })}
              >
                {abbreviatedCount(item.count)}
                {flagged && <span className="coverage-cluster-offline">{item.offline}</span>}
              </button>
            );
          }
          const offline = item.marker.status !== 'online';
          return (
            <button
              key={`s${item.marker.id}`}
              type="button"
              data-testid="map-station"
              className={`coverage-station absolute ${offline ? 'is-offline' : 'is-online'} ${
                offline && highlightOffline ? 'is-alert' : ''
              }`}
              style={position}
              aria-label={`${item.marker.mountpoint} (${t(`status.${offline ? 'offline' : 'online'}`)})`}
              onClick={() => activate({ kind: 'station', id: item.marker.id, lon: item.lon, lat: item.lat })}
            />
          );
        })}
      </>
    );
  }

  return (
    <section
      ref={box}
      aria-label={t('map.label')}
      aria-busy={busy}
      className={`absolute inset-0 overflow-hidden ${busy ? 'cursor-progress' : 'cursor-grab'}`}
      onPointerDown={(event) => {
        if (!(event.target as Element).closest('button')) activate({ kind: 'move' });
      }}
      onWheel={() => activate({ kind: 'move' })}
    >
      {content}
      <div className="absolute top-2.5 right-2.5 flex flex-col overflow-hidden rounded-md bg-white shadow">
        {[
          { delta: 1, sign: '+', label: t('map.zoomIn') },
          { delta: -1, sign: '−', label: t('map.zoomOut') },
        ].map(({ delta, sign, label }) => (
          <button
            key={delta}
            type="button"
            aria-label={label}
            title={label}
            className="flex size-[29px] items-center justify-center text-lg leading-none text-[#333] hover:bg-black/5"
            onClick={() => activate({ kind: 'zoom', delta })}
          >
            <span aria-hidden="true">{sign}</span>
          </button>
        ))}
      </div>
      <p className="absolute right-0 bottom-0 bg-white/60 px-1.5 text-[11px] text-[#333]">Natural Earth</p>
    </section>
  );
}
