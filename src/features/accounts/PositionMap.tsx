import 'maplibre-gl/dist/maplibre-gl.css';
import { Map as MapLibreMap, Marker, NavigationControl, setWorkerUrl } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { brand } from '../../lib/brand';
import { MAP_STYLE_URL, offlineBasemapStyle } from '../catalogue/basemap';
import type { RoverPosition, StationMountpoint } from './position';

setWorkerUrl(workerUrl);

/**
 * A small map to pick the rover's position with a click: the account's stations as dots for orientation, the
 * chosen point as a marker. Loaded only when the user asks for it (MapLibre is a megabyte).
 */
export function PositionMap({
  stations,
  position,
  onPick,
}: {
  stations: StationMountpoint[];
  position: RoverPosition | undefined;
  onPick: (position: { latitude: number; longitude: number }) => void;
}) {
  const { t } = useTranslation('accounts');
  const container = useRef<HTMLDivElement>(null);
  const mapRef = useRef<MapLibreMap | null>(null);
  const marker = useRef<Marker | null>(null);
  const latest = useRef({ stations, position, onPick });
  latest.current = { stations, position, onPick };
  const [failed, setFailed] = useState(false);
  const placeMarker = () => {
    const map = mapRef.current;
    const { position: at } = latest.current;
    if (!map || !at) return;
    marker.current ??= new Marker({ color: '#4afc2d' });
    marker.current.setLngLat([at.longitude, at.latitude]).addTo(map);
  };
  const place = useRef(placeMarker);
  place.current = placeMarker;

  useEffect(() => {
    const node = container.current;
    if (!node) return;
    let disposed = false;
    let map: MapLibreMap | undefined;
    (async () => {
      const style = MAP_STYLE_URL || (await offlineBasemapStyle(brand.darkMapDefault));
      if (disposed) return;
      const { stations: known, position: start } = latest.current;
      const first = start ?? known[0];
      try {
        map = new MapLibreMap({
          container: node,
          style,
          center: first ? [first.longitude, first.latitude] : [10, 53],
          zoom: first ? 7 : 3,
          attributionControl: { compact: true, customAttribution: MAP_STYLE_URL ? undefined : 'Natural Earth' },
          dragRotate: false,
        });
      } catch {
        setFailed(true);
        return;
      }
      mapRef.current = map;
      map.addControl(new NavigationControl({ showCompass: false }), 'top-right');
      for (const s of known) {
        const dot = document.createElement('span');
        dot.className = `block size-2.5 rounded-full ring-2 ring-white/70 ${s.online ? 'bg-status-green' : 'bg-status-red'}`;
        dot.title = s.mountpoint;
        new Marker({ element: dot }).setLngLat([s.longitude, s.latitude]).addTo(map);
      }
      place.current();
      map.on('click', (event) => {
        const longitude = ((((event.lngLat.lng + 180) % 360) + 360) % 360) - 180;
        latest.current.onPick({ latitude: event.lngLat.lat, longitude });
      });
    })();
    return () => {
      disposed = true;
      map?.remove();
      mapRef.current = null;
    };
  }, []);

  useEffect(() => {
    if (position) place.current();
  }, [position]);

  if (failed) return <p className="text-sm text-status-red">{t('card.position.mapFailed')}</p>;
  return (
    <div
      ref={container}
      role="application"
      aria-label={t('card.position.mapLabel')}
      data-testid="position-map"
      className="h-64 w-full overflow-hidden rounded-xl border border-line"
    />
  );
}
